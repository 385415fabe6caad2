import Glibc
import LeitnerCore
import LeitnerSystem

/// The daemon's log: one line per event on standard error. When standard error is the journal
/// (`JOURNAL_STREAM` names its device and inode) each line starts with a `<N>` priority prefix
/// that journald understands; otherwise lines read like any Unix tool's: `leitnerd: …`. When
/// standard error is a file (the log of a daemon leitnerctl started, docs/daemon.md), each line
/// starts with its time, since nothing else will say when it was written.
enum Log {
    /// syslog priorities, as journald reads them from a `<N>` prefix.
    enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    /// True when standard error is connected to the journal (decided once, at start-up).
    static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        let parts = String(cString: value).split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        guard let stderr = try? FileDescriptor(rawValue: 2).identity() else { return false }
        return stderr.device == device && stderr.inode == inode
    }()

    /// True when standard error is a regular file (decided once, at start-up).
    static let toFile: Bool = !toJournal && FileDescriptor(rawValue: 2).isRegularFile

    static func error(_ message: String) { write(.error, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func notice(_ message: String) { write(.notice, message) }
    static func info(_ message: String) { write(.info, message) }

    /// Writes one line; a message never spans lines (a client-supplied text could otherwise
    /// forge log lines).
    static func write(_ priority: Priority, _ message: String) {
        let flat = message.contains("\n") ? message.split(separator: "\n").joined(separator: "\\n") : message
        let line = toJournal ? "<\(priority.rawValue)>\(flat)\n"
            : toFile ? "\(DayClock.rfc3339(SystemClock().now())) leitnerd: \(flat)\n" : "leitnerd: \(flat)\n"
        // A log line that cannot be written has nowhere else to go.
        try? FileDescriptor(rawValue: 2).writeAll(line.utf8)
    }
}
