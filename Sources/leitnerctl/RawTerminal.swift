import Glibc
import LeitnerClient
import LeitnerSystem

/// The terminal in raw mode for the review, on the alternate screen with the cursor hidden,
/// restored whatever happens: `restore()` on every normal way out, and a signal handler for
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE that restores the modes and the screen and
/// then dies of the same signal. A resize (SIGWINCH) is read from a signal descriptor polled
/// with the terminal, so the screen is redrawn at once, without a key and without a busy loop.
final class RawTerminal {
    private let terminal: Terminal
    private let saved: termios
    private var restored = false
    private let resizes: SignalDescriptor?
    private var decoder = KeyDecoder()

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
        // SIGWINCH only reaches the descriptor while it is blocked; without a descriptor (none
        // left) the screen is still redrawn at the next key.
        SignalMask.block([SIGWINCH])
        resizes = try? SignalDescriptor(signals: [SIGWINCH])
        try terminal.setAttributes(Terminal.rawModes(from: saved))
        Console.write(RawTerminal.enterSequence)
        Console.flush()
    }

    /// Leaves raw mode and the alternate screen; safe to call more than once. What was typed
    /// and not read yet is thrown away first (`tcflush`), so that keys pressed as the review
    /// ended do not reach the shell.
    func restore() {
        guard !restored else { return }
        restored = true
        tcflush(terminal.descriptor.rawValue, TCIFLUSH)
        Console.write(RawTerminal.leaveSequence)
        Console.flush()
        try? terminal.setAttributes(saved)
        for signal in RawTerminal.signals { Glibc.signal(signal, SIG_DFL) }
        RawTerminal.savedForSignal = nil
        resizes?.close()
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Gives the terminal back for a while (the editor of the review's `e`): its own modes and
    /// the normal screen, as before the review. The signal handlers stay: they restore the same
    /// modes. `resume()` takes the terminal again.
    func pause() {
        guard !restored else { return }
        Console.write(RawTerminal.leaveSequence)
        Console.flush()
        try? terminal.setAttributes(saved)
    }

    /// Raw mode and the alternate screen again after `pause()`. What was typed for the editor
    /// and not read by it is thrown away, so that it is not taken for review keys.
    /// - Throws: `Errno` when the modes cannot be set.
    func resume() throws(Errno) {
        guard !restored else { return }
        tcflush(terminal.descriptor.rawValue, TCIFLUSH)
        decoder = KeyDecoder()
        try terminal.setAttributes(Terminal.rawModes(from: saved))
        Console.write(RawTerminal.enterSequence)
        Console.flush()
    }

    deinit { restore() }

    /// What woke the review up.
    enum Event: Equatable {
        case keys([Key])
        case resized
        /// `wakeAfter` passed with no key and no resize.
        case woken
    }

    /// Waits for keys or a resize, as long as it takes, or at most `wakeAfter` milliseconds. A
    /// lone Escape is told from the start of a sequence by a pause of 50 ms.
    func next(wakeAfter: Int? = nil) -> Event {
        let deadline = wakeAfter.map { ReviewCommand.monotonicMilliseconds() + $0 }
        while true {
            let descriptors = [terminal.descriptor] + (resizes.map { [$0.descriptor] } ?? [])
            let left = deadline.map { max(0, $0 - ReviewCommand.monotonicMilliseconds()) }
            let ready: [Bool]
            do {
                ready = try Poll.readable(descriptors, milliseconds: decoder.isWaiting ? min(50, left ?? 50) : left)
            } catch where error == .interrupted {
                continue
            } catch {
                return .keys([.endOfInput])
            }
            if ready.count > 1, ready[1] {
                // Several resizes while busy are one redraw.
                var resized = false
                while let signal = try? resizes?.next(), signal == SIGWINCH { resized = true }
                if resized { return .resized }
            }
            if ready[0] {
                guard let bytes = try? terminal.descriptor.read(upTo: 4096), !bytes.isEmpty else {
                    return .keys([.endOfInput])
                }
                let keys = decoder.feed(bytes)
                if !keys.isEmpty { return .keys(keys) }
            } else if decoder.isWaiting {
                return .keys(decoder.flush())
            } else if let deadline, ReviewCommand.monotonicMilliseconds() >= deadline {
                return .woken
            }
        }
    }

    /// Sends `queries` and collects the terminal's answers until `complete` says they are
    /// all there, or `milliseconds` pass (a terminal that does not answer).
    func ask(_ queries: String, milliseconds: Int, complete: ([UInt8]) -> Bool) -> [UInt8] {
        Console.write(queries)
        Console.flush()
        var reply: [UInt8] = []
        let deadline = ReviewCommand.monotonicMilliseconds() + milliseconds
        while !complete(reply) {
            let left = deadline - ReviewCommand.monotonicMilliseconds()
            guard left > 0, (try? Poll.readable([terminal.descriptor], milliseconds: left))?.first == true,
                  let bytes = try? terminal.descriptor.read(upTo: 1024), !bytes.isEmpty else { break }
            reply += bytes
        }
        return reply
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
