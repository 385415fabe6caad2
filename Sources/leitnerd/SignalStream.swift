import Dispatch
import Glibc
import LeitnerCore

/// The signals the daemon handles, as an `AsyncStream` fed by Dispatch signal sources
/// (STYLE §7). `SignalMask.block` must have run first, in the first thread: the sources read the
/// signals that the mask keeps pending.
struct SignalStream: @unchecked Sendable {
    // @unchecked: the sources are only cancelled, which Dispatch allows from any thread.
    /// The signals handled: TERM and INT stop the daemon, HUP reloads, CHLD reaps hooks.
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]

    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .unbounded)
        signals = stream
        sources = Self.handled.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: Readiness.queue)
            source.setEventHandler { continuation.yield(number) }
            source.activate()
            return source
        }
    }

    /// Stops the sources (at shutdown; the signals stay blocked).
    func cancel() {
        for source in sources { source.cancel() }
    }

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
