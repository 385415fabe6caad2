import Glibc
import LeitnerClient
import LeitnerSystem

/// Where leitnerctl writes: results on standard output, messages on standard error.
enum Console {
    /// Standard output and error as C streams of our own: the C library's `stdout` and
    /// `stderr` are shared mutable globals that strict concurrency does not let us name.
    nonisolated(unsafe) static let output = fdopen(1, "w")!
    nonisolated(unsafe) static let errors = fdopen(2, "w")!

    /// Writes `text` and a newline on standard output.
    static func out(_ text: String = "") { fputs(text + "\n", output) }

    /// Writes `text` on standard output as it is.
    static func write(_ text: String) { fputs(text, output) }

    /// Sends what is buffered for standard output.
    static func flush() { fflush(output) }

    /// Writes `leitnerctl: text` on standard error.
    static func error(_ text: String) {
        fflush(output)
        fputs("leitnerctl: \(text)\n", errors)
        fflush(errors)
    }

    /// Writes `text` on standard error as it is (progress lines).
    static func status(_ text: String) {
        fputs(text, errors)
        fflush(errors)
    }

    static let stdinTerminal = Terminal(FileDescriptor(rawValue: 0))
    static let stdoutTerminal = Terminal(FileDescriptor(rawValue: 1))
    static let stderrTerminal = Terminal(FileDescriptor(rawValue: 2))

    /// The width to wrap text to: the terminal's, else 80.
    static var width: Int { stdoutTerminal.size?.columns ?? 80 }
}

extension Console {
    /// Writes a usage error: what is wrong, the usage line, where to find help.
    static func usage(_ error: UsageError) {
        flush()
        fputs(error.rendered(program: CommandTable.program, commands: CommandTable.commands.map(\.spec)) + "\n", errors)
        fflush(errors)
    }
}
