import Glibc
import LeitnerSystem
import Synchronization

/// A browser that opened a pairing link: its name (from its user agent, changeable), the secret
/// its cookie carries, and when it was paired and last seen (seconds since the epoch).
public struct Device: Sendable, Equatable {
    /// A short public id, for the devices page's forms: never the secret.
    public var id: String
    public var secret: String
    public var name: String
    public var paired: Int64
    public var lastSeen: Int64
}

/// The paired devices and the pairing codes not yet used, in two files of leitner-web's state
/// directory (mode 0600, beside the box's configuration state, not in the store: docs/web.md,
/// "What is stored where"). Every change is read, changed and written back whole under a lock
/// file, durably and atomically (a temporary name, fsync, rename, fsync of the directory), so
/// that `leitnerctl web --revoke` and the running server never lose each other's changes. The
/// server keeps the devices in memory and reads the file again when it was replaced, so a
/// revocation from the command line logs the device out at its next request.
public final class DeviceBook: Sendable {
    /// `web-devices`, or `NAME.web-devices` for box NAME; the pairing codes in `…-pairing`.
    public let directory: String
    public let devicesName: String
    public let pairingName: String
    /// `anki-connect-key`, or `NAME.anki-connect-key`: the AnkiConnect door's API key.
    public let ankiKeyName: String
    /// How long a pairing link opens (docs/web.md): 10 minutes.
    public static let pairingLifetime: Int64 = 600
    /// How often a device's `lastSeen` is written back: a request is not worth an fsync.
    static let seenGranularity: Int64 = 3600
    static let maxNameLength = 60

    private struct Cache {
        var identity: (dev: UInt64, ino: UInt64, mtime: Int64, nsec: Int64)?
        var devices: [Device] = []
    }
    private let cache = Mutex(Cache())

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The book of box `box` (nil: the default box) in `directory`.
    public init(directory: String, box: String?) {
        self.directory = directory
        let prefix = box.map { $0 + "." } ?? ""
        devicesName = prefix + "web-devices"
        pairingName = prefix + "web-pairing"
        ankiKeyName = prefix + "anki-connect-key"
    }

    public var devicesPath: String { directory + "/" + devicesName }

    // MARK: Reading

    /// Every device, in the order they were paired.
    public func devices() throws(Failure) -> [Device] {
        let dir = try openDirectory()
        defer { dir.close() }
        return try cachedDevices(in: dir)
    }

    /// The device whose secret is `secret`; every secret is compared in constant time.
    public func device(secret: String) -> Device? {
        guard let all = try? devices() else { return nil }
        var found: Device?
        for device in all where ConstantTime.equal(device.secret, secret) { found = device }
        return found
    }

    /// The AnkiConnect door's API key (docs/web.md, "AnkiConnect"): made at random the first
    /// time it is asked for and kept, a secret beside the devices', until the file is removed.
    public func ankiConnectKey() throws(Failure) -> String {
        try changing { (dir) throws(Failure) in
            let kept = try read(ankiKeyName, in: dir).filter { !$0.isWhitespace }
            if !kept.isEmpty { return kept }
            let key = try random(16)
            try write(key + "\n", to: ankiKeyName, in: dir)
            return key
        }
    }

    // MARK: Changing

    /// A new pairing code, valid for `pairingLifetime` from `now`; codes past their time are dropped.
    public func newPairingCode(now: Int64) throws(Failure) -> String {
        try changing { (dir) throws(Failure) in
            var codes = try readPairing(in: dir).filter { $0.expires > now }
            let code = try random(16)
            codes.append((code, now + Self.pairingLifetime))
            try write(codes.map { "\($0.code) \($0.expires)\n" }.joined(), to: pairingName, in: dir)
            return code
        }
    }

    /// Uses the pairing code `code` up: when it is one not yet used nor past its time, a new
    /// device named after `userAgent`; nil otherwise. The code is gone either way.
    public func pair(code: String, userAgent: String?, now: Int64) throws(Failure) -> Device? {
        try changing { (dir) throws(Failure) in
            let codes = try readPairing(in: dir)
            var matched = false
            for entry in codes where ConstantTime.equal(entry.code, code) { matched = matched || entry.expires > now }
            let kept = codes.filter { $0.expires > now && !ConstantTime.equal($0.code, code) }
            if kept.count != codes.count {
                try write(kept.map { "\($0.code) \($0.expires)\n" }.joined(), to: pairingName, in: dir)
            }
            guard matched else { return nil }
            var devices = try readDevices(in: dir)
            let name = Self.unique(DeviceName.from(userAgent: userAgent), among: devices.map(\.name))
            let device = Device(id: try random(4), secret: try random(32), name: name, paired: now, lastSeen: now)
            devices.append(device)
            try writeDevices(devices, in: dir)
            return device
        }
    }

    /// Renames the device `id` to `name` (cleaned; a number added when another has it). Returns
    /// the name given, or nil when there is no such device.
    @discardableResult
    public func rename(id: String, to name: String) throws(Failure) -> String? {
        let cleaned = DeviceName.clean(name)
        guard !cleaned.isEmpty else { throw Failure(description: "a device's name cannot be empty") }
        return try changing { (dir) throws(Failure) in
            var devices = try readDevices(in: dir)
            guard let index = devices.firstIndex(where: { $0.id == id }) else { return nil }
            let given = Self.unique(cleaned, among: devices.enumerated().filter { $0.offset != index }.map(\.element.name))
            devices[index].name = given
            try writeDevices(devices, in: dir)
            return given
        }
    }

    /// Forgets the device named `name` (or whose id is `name`): its cookie opens nothing from
    /// then on. Returns it, or nil when there is none.
    @discardableResult
    public func revoke(_ name: String) throws(Failure) -> Device? {
        try changing { (dir) throws(Failure) in
            var devices = try readDevices(in: dir)
            guard let index = devices.firstIndex(where: { $0.name == name }) ?? devices.firstIndex(where: { $0.id == name }) else {
                return nil
            }
            let device = devices.remove(at: index)
            try writeDevices(devices, in: dir)
            return device
        }
    }

    /// Notes that `device` was seen at `now`, written at most once an hour.
    public func seen(_ device: Device, now: Int64) {
        guard now - device.lastSeen >= Self.seenGranularity else { return }
        _ = try? changing { (dir) throws(Failure) in
            var devices = try readDevices(in: dir)
            if let index = devices.firstIndex(where: { $0.id == device.id }) {
                devices[index].lastSeen = now
                try writeDevices(devices, in: dir)
            }
        }
    }

    // MARK: Files

    private func openDirectory() throws(Failure) -> FileDescriptor {
        do throws(Errno) {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            return try FileDescriptor.openDirectory(directory)
        } catch {
            throw Failure(description: "cannot open leitner-web's state directory '\(directory)': \(error)")
        }
    }

    /// Runs `body` on the state directory under the book's lock file.
    private func changing<R>(_ body: (FileDescriptor) throws(Failure) -> R) throws(Failure) -> R {
        let dir = try openDirectory()
        defer { dir.close() }
        let lock: FileDescriptor
        do throws(Errno) {
            lock = try FileDescriptor.open(devicesName + ".lock", relativeTo: dir, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
            try lock.lockExclusive()
        } catch {
            throw Failure(description: "cannot lock '\(devicesPath).lock': \(error)")
        }
        defer { lock.close() }
        return try body(dir)
    }

    private func cachedDevices(in dir: FileDescriptor) throws(Failure) -> [Device] {
        let st: stat
        do throws(Errno) {
            st = try FileSystem.status(devicesName, in: dir)
        } catch where error == .noEntry {
            cache.withLock { $0 = Cache() }
            return []
        } catch {
            throw Failure(description: "cannot read '\(devicesPath)': \(error)")
        }
        let identity = (UInt64(st.st_dev), UInt64(st.st_ino), Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec))
        if let hit = cache.withLock({ cached -> [Device]? in
            guard let old = cached.identity, old == identity else { return nil }
            return cached.devices
        }) {
            return hit
        }
        let devices = try readDevices(in: dir)
        cache.withLock { $0 = Cache(identity: identity, devices: devices) }
        return devices
    }

    private func read(_ name: String, in dir: FileDescriptor) throws(Failure) -> String {
        let st: stat
        let bytes: [UInt8]
        do throws(Errno) {
            st = try FileSystem.status(name, in: dir)
            bytes = try FileSystem.readFile(name, in: dir, limit: 1 << 20)
        } catch where error == .noEntry {
            return ""
        } catch {
            throw Failure(description: "cannot read '\(directory)/\(name)': \(error)")
        }
        // The file holds the devices' secrets: one that others may read is refused, as ssh refuses a key.
        if st.st_mode & 0o077 != 0 {
            throw Failure(description: "'\(directory)/\(name)' may be read by other users (mode \(String(st.st_mode & 0o777, radix: 8))): 'chmod 600' it")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func readPairing(in dir: FileDescriptor) throws(Failure) -> [(code: String, expires: Int64)] {
        try read(pairingName, in: dir).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let expires = Int64(fields[1]) else { return nil }
            return (String(fields[0]), expires)
        }
    }

    private func readDevices(in dir: FileDescriptor) throws(Failure) -> [Device] {
        var devices: [Device] = []
        for (number, line) in try read(devicesName, in: dir).split(separator: "\n").enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, let paired = Int64(fields[2]), let seen = Int64(fields[3]) else {
                throw Failure(description: "'\(devicesPath)' line \(number + 1) is not 'ID SECRET PAIRED SEEN NAME' (tab-separated): fix or remove it")
            }
            devices.append(Device(id: String(fields[0]), secret: String(fields[1]), name: String(fields[4]),
                                  paired: paired, lastSeen: seen))
        }
        return devices
    }

    private func writeDevices(_ devices: [Device], in dir: FileDescriptor) throws(Failure) {
        try write(devices.map { "\($0.id)\t\($0.secret)\t\($0.paired)\t\($0.lastSeen)\t\($0.name)\n" }.joined(),
                  to: devicesName, in: dir)
    }

    private func write(_ text: String, to name: String, in dir: FileDescriptor) throws(Failure) {
        do throws(Errno) {
            try FileSystem.writeAtomically(Array(text.utf8), to: name, in: dir, mode: 0o600)
        } catch {
            throw Failure(description: "cannot write '\(directory)/\(name)': \(error)")
        }
    }

    private func random(_ count: Int) throws(Failure) -> String {
        do throws(Errno) {
            return try RandomBytes.hex(count)
        } catch {
            throw Failure(description: "cannot make a random secret: \(error)")
        }
    }

    /// `name`, or `name 2`, `name 3`… when another device has it: `--revoke NAME` names one.
    static func unique(_ name: String, among names: [String]) -> String {
        guard names.contains(name) else { return name }
        var number = 2
        while names.contains("\(name) \(number)") { number += 1 }
        return "\(name) \(number)"
    }
}
