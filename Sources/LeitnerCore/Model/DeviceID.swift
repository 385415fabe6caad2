import LeitnerSystem

/// The name of one machine's copy of a synced store (docs/sync.md): the device writes only its
/// own `.leitner/devices/DEVICE/` files and keeps its private state in `.leitner/local.DEVICE/`.
///
/// 1 to 64 bytes of ASCII letters, digits, `_` and `-`, not starting with `-`: safe in a file
/// name on every system a sync tool copies to, and never mistaken for a sync tool's temporary
/// (`.syncthing.*`) or for `.`/`..`.
public enum DeviceID {
    /// Why `name` cannot be a device id, or nil when it can.
    public static func problem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count) else { return "a device id is 1 to 64 characters" }
        guard bytes.first != UInt8(ascii: "-") else { return "a device id does not start with '-'" }
        for byte in bytes where !isAllowed(byte) {
            return "a device id is made of the letters a-z and A-Z, the digits, '_' and '-'"
        }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// A new random id: 12 characters of lowercase base32 (60 bits), so that two machines never
    /// draw the same one.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var value = generator.next()
        var result: [UInt8] = []
        for _ in 0..<12 {
            result.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The id kept in `path` (`ConfigurationLocator.deviceFilePath`); on the first start, a new
    /// random one written there atomically (its directories made 0700 as needed).
    /// - Throws: a message naming the file and the reason when it cannot be read, holds no valid
    ///   id, or cannot be written.
    public static func loadOrCreate(at path: String) throws(DeviceIDError) -> String {
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: path, limit: 256)
        } catch where error == .noEntry {
            bytes = nil
        } catch {
            throw DeviceIDError(description: "\(path): cannot read: \(error)")
        }
        if let bytes {
            let text = String(decoding: bytes, as: UTF8.self)
            let name = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            if let problem = problem(name) {
                throw DeviceIDError(description: "\(path): \(problem) (found '\(name)'); remove the file to draw a new one, or set [Sync] Device=")
            }
            return name
        }
        var generator = SystemRandomNumberGenerator()
        let name = random(using: &generator)
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let directory = String(path[..<slash])
        let fileName = String(path[path.index(after: slash)...])
        // Written under a name of its own, then linked to its place: link(2) fails when the file
        // is there, so that of two daemons starting at once, both take the id the first wrote.
        let temporary = ".\(fileName).\(CurrentProcess.id).\(random(using: &generator))"
        var raced = false
        do throws(Errno) {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            let fd = try FileDescriptor.openDirectory(directory.isEmpty ? "/" : directory)
            defer { fd.close() }
            let file = try FileDescriptor.open(temporary, relativeTo: fd, .writeOnly, options: [.create, .exclusive, .noFollow], mode: 0o600)
            defer { try? FileSystem.removeFile(temporary, in: fd) }
            do {
                try file.writeAll(Array((name + "\n").utf8))
                try file.sync()
                file.close()
            } catch {
                file.close()
                throw error
            }
            do throws(Errno) {
                try FileSystem.link(temporary, in: fd, as: fileName, in: fd)
            } catch where error == .exists {
                raced = true
            }
            try fd.sync()
        } catch {
            throw DeviceIDError(description: "\(path): cannot write the new device id: \(error)")
        }
        if raced { return try loadOrCreate(at: path) }
        return name
    }
}
