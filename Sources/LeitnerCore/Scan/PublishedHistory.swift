import LeitnerSystem

/// What a device's review log says that a start without `.leitner/local.DEVICE` would otherwise
/// read the whole log for — where the log left each card (`LoggedLevels`), the places' ledger
/// (`PlacesLedger`) and the graded days (`GradedDays`) — published by the device beside its log,
/// in `.leitner/devices/DEVICE/`, so that a copy of the store, a backup put back without its local
/// state or a new machine's clone reads only the lines after them (docs/store-format.md,
/// "Published beside the log"; docs/performance.md, "Another device's history after a start").
///
/// Each file is the local file's text, derived from the log's lines alone up to its offset, with
/// the check of the 64 bytes before that offset (`PeerReadMarks.check`) as the local files have
/// it, and sealed: a last line of the CRC-32C (8 hex digits) of everything before it, since these
/// files travel through sync tools and are taken without a reading of the log to vouch for them.
/// One that is cut, damaged, of another history or ahead of the log is not used: the log is read
/// from its start, as without it. The log stays the one record.
enum PublishedHistory {
    static let loggedLevels = "logged-levels"
    static let places = "places"
    static let gradedDays = "graded-days"

    /// `bytes` with their seal.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        let hex = String(CRC32C.checksum(bytes), radix: 16)
        return bytes + Array((String(repeating: "0", count: 8 - hex.count) + hex + "\n").utf8)
    }

    /// The bytes a sealed file holds; nil when its seal is missing or does not match them.
    static func unsealed(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 9, bytes[bytes.count - 1] == UInt8(ascii: "\n"),
              let seal = UInt32(String(decoding: bytes[(bytes.count - 9)..<(bytes.count - 1)], as: UTF8.self), radix: 16)
        else { return nil }
        let content = Array(bytes[..<(bytes.count - 9)])
        return CRC32C.checksum(content) == seal ? content : nil
    }

    /// Device `device`'s published file `name`, unsealed; nil when it is missing, unreadable,
    /// larger than `limit` or not whole.
    static func read(_ name: String, of device: String, in devices: FileDescriptor, limit: Int) -> [UInt8]? {
        guard let directory = try? FileDescriptor.openDirectory(device, relativeTo: devices) else { return nil }
        defer { directory.close() }
        return (try? FileSystem.readFile(name, in: directory, limit: limit)).flatMap(unsealed)
    }

    /// Publishes `bytes` as `name` in this device's directory (temporary name, rename); false when
    /// it could not: a file not written costs a later start without local state a longer
    /// reading, never a change.
    @discardableResult
    static func write(_ bytes: [UInt8], as name: String, in device: FileDescriptor) -> Bool {
        (try? FileSystem.writeAtomically(sealed(bytes), to: name, in: device)) != nil
    }
}
