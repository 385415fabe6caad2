import Glibc
import LeitnerSystem

/// How far each other device's review log has been looked through for cards to settle, kept in
/// `.leitner/local.DEVICE/peers-read` across restarts (docs/store-format.md): without it, the
/// first request after a start read a synced machine's whole history again and made every card
/// it names a candidate for settling — 100,000 of them for a year's log, whose directories were
/// then looked at before every request until the store had been quiet for `SettleAfter=`.
///
/// A mark is written only when every card noted up to it has been settled or found to need
/// nothing (`Box.settle`), so a restart never skips a card still to settle. Each mark holds the
/// CRC-32C of the 64 bytes before its offset: a log replaced by another history (a backup put
/// back, a device id reused) does not match and is read from its start, as a shorter one is.
struct PeerReadMarks: Equatable {
    static let fileName = "peers-read"
    /// The bytes before a mark that its check covers.
    static let checkedBytes = 64

    struct Mark: Equatable {
        var offset: Int
        var check: UInt32
    }

    private(set) var marks: [String: Mark] = [:]

    init() {}

    /// The marks in `directory`'s file; none when it is missing or unreadable (the logs are
    /// then read from their start, as before the file existed). A malformed line is passed over.
    static func load(in directory: FileDescriptor) -> PeerReadMarks {
        var read = PeerReadMarks()
        guard let bytes = try? FileSystem.readFile(fileName, in: directory, limit: 1 << 20) else { return read }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t"))
            guard fields.count == 3, DeviceID.problem(String(decoding: fields[0], as: UTF8.self)) == nil,
                  let offset = Int(String(decoding: fields[1], as: UTF8.self)), offset > 0,
                  let check = UInt32(String(decoding: fields[2], as: UTF8.self), radix: 16) else { continue }
            read.marks[String(decoding: fields[0], as: UTF8.self)] = Mark(offset: offset, check: check)
        }
        return read
    }

    /// Calls `body` with device `name`'s log in `devices` open for reading; nil when it cannot be opened.
    static func withLog<T>(_ name: String, in devices: FileDescriptor, _ body: (FileDescriptor) -> T?) -> T? {
        guard let directory = try? FileDescriptor.openDirectory(name, relativeTo: devices) else { return nil }
        defer { directory.close() }
        guard let log = try? FileDescriptor.open(ReviewLog.fileName, relativeTo: directory, flags: O_RDONLY | O_NOFOLLOW) else { return nil }
        defer { log.close() }
        return body(log)
    }

    /// The check of the bytes before `offset` in the log open as `file`; nil when they cannot be read.
    static func check(_ file: FileDescriptor, before offset: Int) -> UInt32? {
        let start = max(0, offset - checkedBytes)
        guard let bytes = try? file.read(at: start, upTo: offset - start), bytes.count == offset - start else { return nil }
        return CRC32C.checksum(bytes)
    }

    /// Where to go on reading `name`'s log from, `log` open on it: its mark when the bytes
    /// before it are still those it was made after, else 0.
    func offset(of name: String, log: FileDescriptor) -> Int {
        guard let mark = marks[name], PeerReadMarks.check(log, before: mark.offset) == mark.check else { return 0 }
        return mark.offset
    }

    mutating func set(_ name: String, _ mark: Mark?) { marks[name] = mark }

    /// Writes the marks (temporary name and rename): a mark lost costs one reading of the log,
    /// never a card.
    func save(in directory: FileDescriptor) throws(Errno) {
        let text = marks.keys.sorted().map { name in
            let mark = marks[name]!
            return "\(name)\t\(mark.offset)\t\(String(mark.check, radix: 16))\n"
        }.joined()
        try FileSystem.writeAtomically(Array(text.utf8), to: PeerReadMarks.fileName, in: directory)
    }
}
