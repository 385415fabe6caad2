import Glibc
import LeitnerClient
import LeitnerSystem

/// The terminal in raw mode for the review, on the alternate screen with the cursor hidden,
/// restored whatever happens: `restore()` on every normal way out, and a signal handler for
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE that restores the modes and the screen and
/// then dies of the same signal.
final class RawTerminal {
    private let terminal: Terminal
    private let saved: termios
    private var restored = false

    /// What the signal handler restores; set while a `RawTerminal` is active. Global because
    /// a signal handler can reach nothing else.
    nonisolated(unsafe) static var savedForSignal: termios?
    static let leaveSequence = "\u{1B}[?25h\u{1B}[?1049l"
    /// The same, made once: a signal handler must not allocate.
    nonisolated(unsafe) static let leaveBytes = strdup(leaveSequence)!
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l"
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE]

    /// Switches standard input to raw mode and standard output to the alternate screen.
    /// - Throws: `Errno` when the modes cannot be read or set.
    init() throws(Errno) {
        terminal = Console.stdinTerminal
        saved = try terminal.attributes()
        RawTerminal.savedForSignal = saved
        for signal in RawTerminal.signals { Glibc.signal(signal, restoreAndDie) }
        try terminal.setAttributes(Terminal.rawModes(from: saved))
        Console.write(RawTerminal.enterSequence)
        Console.flush()
    }

    /// Leaves raw mode and the alternate screen; safe to call more than once.
    func restore() {
        guard !restored else { return }
        restored = true
        Console.write(RawTerminal.leaveSequence)
        Console.flush()
        try? terminal.setAttributes(saved)
        for signal in RawTerminal.signals { Glibc.signal(signal, SIG_DFL) }
        RawTerminal.savedForSignal = nil
    }

    deinit { restore() }

    /// Reads one key press (an escape sequence arrives whole).
    func readKey() throws(Errno) -> Key {
        let bytes = try terminal.descriptor.read(upTo: 16)
        return Key(bytes)
    }

    /// A key of the review.
    enum Key: Equatable {
        case flip, correct, wrong, undo, quit, other

        init(_ bytes: [UInt8]) {
            switch bytes {
            case []: self = .quit // end of input
            case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43]: self = .correct // →
            case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44]: self = .wrong // ←
            default:
                switch bytes[0] {
                case UInt8(ascii: " "), 0x0D, 0x0A: self = .flip
                case UInt8(ascii: "y"), UInt8(ascii: "Y"): self = .correct
                case UInt8(ascii: "n"), UInt8(ascii: "N"): self = .wrong
                case UInt8(ascii: "u"), UInt8(ascii: "U"): self = .undo
                case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: self = .quit // q, Ctrl-C, Ctrl-D
                default: self = .other
                }
            }
        }
    }
}

/// The signal handler: only async-signal-safe calls (tcsetattr, write, signal, raise), so the
/// C library is called directly here rather than through the system-call layer.
private func restoreAndDie(_ signal: Int32) {
    if var modes = RawTerminal.savedForSignal { _ = tcsetattr(0, TCSADRAIN, &modes) }
    _ = write(1, RawTerminal.leaveBytes, strlen(RawTerminal.leaveBytes))
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}
