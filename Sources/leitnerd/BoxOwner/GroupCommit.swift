import Synchronization
import LeitnerCore
import LeitnerSystem

/// Group commit (docs/daemon.md, "Group commit"): the replies waiting for the journal to reach
/// the disk share its flushes. A call writes its change's journal record while it holds the box,
/// and lets the box go; then, before its reply is sent, it waits here until its record is
/// durable. The first waiter to find no flush under way flushes (`fdatasync`), outside the box,
/// for every record written by then; the others sleep until it is done and look again: their
/// record was covered, or they lead the next flush. Eight clients grading at once thus pay for
/// two or three flushes, not eight in a row.
final class GroupCommit: Sendable {
    private struct State {
        var flushing = false
        /// Threads to wake when the flush under way ends.
        var waiting: [Wake] = []
    }

    private let state = Mutex(State())

    /// Returns once `point` is on disk.
    /// - Parameter wake: the calling thread's doorbell; the flush's leader rings it when done.
    /// - Throws: the flush's error; the journal then refuses every later change (`JournalFile`).
    func waitUntilDurable(_ point: CommitPoint, wake: Wake) throws(Errno) {
        while !point.isDurable {
            if let failed = point.file.failed { throw failed }
            let leads = state.withLock { state -> Bool in
                if state.flushing {
                    state.waiting.append(wake)
                    return false
                }
                state.flushing = true
                return true
            }
            guard leads else {
                // A ring is kept until drained, so the leader's ring is never missed; a ring meant
                // for something else (the daemon stopping) only makes this look again.
                if (try? Poll.readable([wake.descriptor], milliseconds: nil))?.first == true { wake.drain() }
                continue
            }
            var failure: Errno?
            do { try point.file.flush() } catch { failure = error }
            let waiting = state.withLock { state -> [Wake] in
                state.flushing = false
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in waiting { waiter.ring() }
            if let failure { throw failure }
        }
    }
}
