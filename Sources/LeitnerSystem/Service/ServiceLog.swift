import Glibc

/// A server program's log (leitnerd's and leitner-web's): one line per event on standard error.
/// When standard error is the journal (`JOURNAL_STREAM` names its device and inode) each line
/// starts with a `<N>` priority prefix that journald understands; otherwise lines read like any
/// Unix tool's: `leitnerd: …`. When standard error is a regular file and the program gives a
/// clock, each line starts with its time, since nothing else will say when it was written (the
/// log of a daemon leitnerctl started, docs/daemon.md).
///
/// This module never writes a line of its own accord: a program makes its log and hands it to
/// the pieces of its server (`ServiceListener`, `AcceptLoop`) that report through it.
package struct ServiceLog: Sendable {
    /// syslog priorities, as journald reads them from a `<N>` prefix.
    package enum Priority: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    /// How lines are written, decided once, from where they go.
    package enum Style: Equatable, Sendable {
        /// The journal: `<4>message`.
        case journal
        /// A regular file: `2026-11-28T10:00:00+01:00 leitnerd: message`.
        case file
        /// A terminal, a pipe, anything else: `leitnerd: message`.
        case plain

        /// The style for `descriptor`, given the `JOURNAL_STREAM` value (`DEVICE:INODE`) the
        /// program was started with.
        package static func of(_ descriptor: FileDescriptor, journalStream: String?) -> Style {
            if let journalStream {
                let parts = journalStream.split(separator: ":")
                if parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]),
                   let identity = try? descriptor.identity(),
                   identity.device == device, identity.inode == inode {
                    return .journal
                }
            }
            return descriptor.isRegularFile ? .file : .plain
        }
    }

    /// The program's name, which starts each line that is not the journal's.
    package let program: String
    package let style: Style
    /// The time at which a line is written, for a log in a file; nil writes none.
    private let clock: (@Sendable () -> String)?
    private let descriptor: FileDescriptor

    /// The log of `program` on `descriptor` (standard error unless a test says otherwise).
    /// - Parameter clock: the time to start each line with in a file; nil for none.
    package init(program: String, clock: (@Sendable () -> String)? = nil,
                 descriptor: FileDescriptor = FileDescriptor(rawValue: 2)) {
        let journalStream = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        self.init(program: program, clock: clock, descriptor: descriptor,
                  style: Style.of(descriptor, journalStream: journalStream))
    }

    package init(program: String, clock: (@Sendable () -> String)?, descriptor: FileDescriptor, style: Style) {
        self.program = program
        self.clock = clock
        self.descriptor = descriptor
        self.style = style
    }

    package func error(_ message: String) { write(.error, message) }
    package func warning(_ message: String) { write(.warning, message) }
    package func notice(_ message: String) { write(.notice, message) }
    package func info(_ message: String) { write(.info, message) }

    /// Writes one line.
    package func write(_ priority: Priority, _ message: String) {
        // A line that cannot be written has nowhere else to go.
        try? descriptor.writeAll(line(priority, message).utf8)
    }

    /// The line `message` becomes. It never spans lines: a text a client sent could otherwise
    /// forge log lines, so each newline is written `\n`.
    package func line(_ priority: Priority, _ message: String) -> String {
        let flat = message.contains("\n")
            ? message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") : message
        switch style {
        case .journal: return "<\(priority.rawValue)>\(flat)\n"
        case .file: return clock.map { "\($0()) \(program): \(flat)\n" } ?? "\(program): \(flat)\n"
        case .plain: return "\(program): \(flat)\n"
        }
    }
}
