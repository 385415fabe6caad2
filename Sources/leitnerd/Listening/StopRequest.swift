import LeitnerSystem
import Synchronization

/// A stop asked for by another thread than the listener: a client's `Stop()`, or a reload that
/// lost the box. The first request wins; the listener's doorbell is rung so that it begins the
/// stop at once, as on SIGTERM (docs/daemon.md, "Life cycle").
final class StopRequest: Sendable {
    /// The exit status and why, once asked.
    private let request = Mutex<(status: Int32, reason: String)?>(nil)
    private let listenerWake: Wake

    init(listenerWake: Wake) {
        self.listenerWake = listenerWake
    }

    /// Asks the listener to stop with `status`; a later request changes nothing.
    func ask(status: Int32, reason: String) {
        let first = request.withLock { state -> Bool in
            guard state == nil else { return false }
            state = (status, reason)
            return true
        }
        if first { listenerWake.ring() }
    }

    /// The request, when there is one.
    var current: (status: Int32, reason: String)? { request.withLock { $0 } }
}
