import Glibc
import Synchronization
import LeitnerSystem

/// Card directories being moved between two levels by a thread of their own
/// (`Store.beginMovingCards`): their journal record's flush, then their renames. The box's
/// thread goes on meanwhile and waits for them in `Store.finishMoving`, which logs them or takes
/// them back. Opening a day of 100,000 cards in `new/`, the flush and the 20 renames were a
/// quarter of the `Prepare` and the test's queue most of the rest; each runs on one of two CPUs
/// now (docs/performance.md, "Admissions").
final class CardMoves: Sendable {
    enum Outcome: Sendable {
        case moved
        /// Nothing was renamed: the record may not be on disk.
        case flushFailed(Errno)
        /// The renames before `id`'s were put back.
        case renameFailed(id: String, Errno)
    }

    let ids: [String]
    let from: Level
    let to: Level
    let pending: ReviewLog.Pending
    private let source: FileDescriptor
    private let target: FileDescriptor
    private let outcome = Mutex<Outcome?>(nil)
    /// Rung by the thread when `outcome` is set; nil when none could be made (the moves are then
    /// carried out on the box's thread, at `start`).
    private let done: EventDescriptor?

    init(ids: [String], from: (Level, FileDescriptor), to: (Level, FileDescriptor), pending: ReviewLog.Pending) {
        self.ids = ids
        (self.from, source) = from
        (self.to, target) = to
        self.pending = pending
        done = try? EventDescriptor()
    }

    deinit { done?.close() }

    /// Starts the flush and the renames on a thread, or carries them out now when no thread (or
    /// no descriptor to wait on) can be had.
    func start(flushing file: JournalFile) {
        let carryOut = { @Sendable in
            let result = CardMoves.carryOut(self.ids, from: self.source, to: self.target, flushing: file)
            self.outcome.withLock { $0 = result }
            self.done?.signal()
        }
        // A simulated crash (R18's tests) counts one thread's calls: with one armed, every step
        // is taken on this thread, so that a crash can fall between any two of them.
        if done == nil || CrashPoint.isArmed || DetachedThread.start(carryOut) != nil { carryOut() }
    }

    /// Waits for the thread; the outcome.
    func wait() -> Outcome {
        while true {
            if let result = outcome.withLock({ $0 }) { return result }
            guard let done else { continue }
            // A failed poll (EINTR) only looks at the outcome again.
            _ = try? Poll.readable([done.descriptor], milliseconds: nil)
        }
    }

    /// Puts every card back: the log could not take the lines of moves that were all made.
    func undo() throws(Errno) {
        for id in ids.reversed() { try FileSystem.rename(id, in: target, to: id, in: source) }
    }

    /// The flush, then the renames; should one fail, those made are put back.
    private static func carryOut(_ ids: [String], from source: FileDescriptor, to target: FileDescriptor,
                                 flushing file: JournalFile) -> Outcome {
        do throws(Errno) { try file.flush() } catch { return .flushFailed(error) }
        for (done, id) in ids.enumerated() {
            do throws(Errno) {
                try FileSystem.rename(id, in: source, to: id, in: target)
            } catch {
                for moved in ids.prefix(done).reversed() { try? FileSystem.rename(moved, in: target, to: moved, in: source) }
                return .renameFailed(id: id, error)
            }
        }
        return .moved
    }
}
