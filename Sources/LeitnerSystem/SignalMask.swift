import Glibc

/// The process's signal mask. A daemon that takes signals through Dispatch signal sources blocks
/// them first, in its first thread, so that every later thread inherits the mask and no signal
/// takes its default action (ending the process) before the source reads it.
public enum SignalMask {
    /// Blocks `signals` in the calling thread, and so in every thread it starts afterwards.
    /// - Parameter signals: signal numbers (`SIGTERM`, …).
    public static func block(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        // pthread_sigmask fails only for an invalid `how`: nothing to handle.
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Ignores `signal` (`SIGPIPE`: a peer that went away is an `EPIPE` to handle, not a death).
    public static func ignore(_ signal: Int32) {
        Glibc.signal(signal, SIG_IGN)
    }

    /// Gives `signal` its default action again, whatever the process inherited (`SIGPIPE`
    /// ignored by the program that started it).
    public static func restoreDefault(_ signal: Int32) {
        Glibc.signal(signal, SIG_DFL)
    }
}
