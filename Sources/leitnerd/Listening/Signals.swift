import Glibc

/// The signals the daemon handles. They are blocked in the first thread, before any other
/// starts (every thread inherits the mask), and the listener reads them from a descriptor
/// (`SignalDescriptor`) in its `poll`: no handler runs, nothing happens asynchronously.
enum Signals {
    /// TERM and INT stop the daemon, HUP reloads, CHLD reaps hooks.
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]

    /// The signal's name for the log: `SIGTERM`.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGCHLD: "SIGCHLD"
        default: "signal \(number)"
        }
    }
}
