import Glibc
import LeitnerSystem

/// leitner-web's log: one line per event on standard error, with a `<N>` priority prefix when
/// that is the journal (`JOURNAL_STREAM`), else `leitner-web: …`. A request's text is never put
/// in a line as it came: it could forge lines.
enum WebLog {
    static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: value).split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
              let stderr = try? FileDescriptor(rawValue: 2).identity() else { return false }
        return stderr.device == device && stderr.inode == inode
    }()

    static func error(_ message: String) { write(3, message) }
    static func warning(_ message: String) { write(4, message) }
    static func info(_ message: String) { write(6, message) }

    static func write(_ priority: Int, _ message: String) {
        let flat = message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
        let line = toJournal ? "<\(priority)>\(flat)\n" : "leitner-web: \(flat)\n"
        try? FileDescriptor(rawValue: 2).writeAll(line.utf8)
    }
}
