import LeitnerCore
import Synchronization

/// Tells every connection thread that the daemon is stopping: a flag checked after each reply,
/// and a descriptor that becomes readable for good, so that a thread blocked in `poll` wakes.
final class ShutdownSignal: Sendable {
    private let triggered = Atomic(false)
    /// Readable once `trigger()` has been called; never read, so it stays readable.
    let descriptor: FileDescriptor
    private let writer: FileDescriptor

    init() throws(Errno) {
        (descriptor, writer) = try Socket.makePair()
    }

    var isTriggered: Bool { triggered.load(ordering: .acquiring) }

    /// Stops the connections (idempotent): each finishes the reply in hand, then ends.
    func trigger() {
        guard !triggered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // One byte, to a fresh socket: it cannot fail but for a bug.
        _ = try? Socket.sendSome(writer, [1], from: 0)
    }
}
