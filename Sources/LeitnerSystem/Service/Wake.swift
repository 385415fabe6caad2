/// A thread's doorbell: every thread of a server that sleeps in `poll` (the accept loop, each
/// connection, a daemon's reload) has one, and whoever needs it awake rings it: the listener asking a
/// connection to close (shutdown, or to make room), a thread handing over the box or a
/// large-message share (`Turnstile`), a connection ending. A ring says only "look again":
/// what to do is in the state the ringer changed first, so a drained ring is never lost.
///
/// A class, so that a ringer holding a reference can never write to a descriptor that was
/// closed and whose number was given to another file: the descriptor closes with the last
/// reference.
package final class Wake: Sendable {
    private let counter: EventDescriptor

    /// - Throws: `Errno`; `EMFILE` when the process has no descriptor left.
    package init() throws(Errno) {
        counter = try EventDescriptor()
    }

    deinit { counter.close() }

    /// The descriptor to poll for reading.
    package var descriptor: FileDescriptor { counter.descriptor }

    /// Wakes the owner (now, or at its next wait).
    package func ring() { counter.signal() }

    /// Takes the rings in: the owner calls this when `poll` says it was rung, then looks again.
    package func drain() { counter.drain() }
}
