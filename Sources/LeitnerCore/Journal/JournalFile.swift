import Synchronization
import LeitnerSystem

/// The journal's open file, shared with the threads that flush it under group commit
/// (docs/daemon.md, "Group commit"): the box writes records into it while it holds the turn, and
/// a thread waiting for its reply makes them durable with one `fdatasync` outside the turn, for
/// every record written by then. Counts the records written and those known durable; the
/// descriptor closes with the last reference, so a flush never hits a reused descriptor.
public final class JournalFile: Sendable {
    let fd: FileDescriptor
    /// Records written so far (by this file's journal), numbered from 1.
    private let written = Atomic<UInt64>(0)
    /// The highest record number known to be on disk.
    private let durable = Atomic<UInt64>(0)
    /// Set by the first flush that fails: nothing written is known durable from then on
    /// (after a failed `fdatasync` a second one may succeed with the data lost), so every later
    /// change is refused until a restart.
    private let failure = Mutex<Errno?>(nil)

    init(fd: FileDescriptor) { self.fd = fd }

    deinit { fd.close() }

    /// Counts a record written; returns its number.
    func noteWritten() -> UInt64 { written.add(1, ordering: .sequentiallyConsistent).newValue }

    /// The number of the last record written.
    var lastWritten: UInt64 { written.load(ordering: .sequentiallyConsistent) }

    /// True when record `number` is on disk.
    public func isDurable(_ number: UInt64) -> Bool { durable.load(ordering: .sequentiallyConsistent) >= number }

    /// Why a flush failed, if one did.
    public var failed: Errno? { failure.withLock { $0 } }

    /// Makes every record written so far durable (`fdatasync`), from any thread.
    /// - Throws: the flush's error; it is kept, and every later flush fails with it.
    public func flush() throws(Errno) {
        if let failed { throw failed }
        let target = lastWritten
        do { try fd.syncData() } catch {
            failure.withLock { $0 = $0 ?? error }
            throw error
        }
        noteDurable(upTo: target)
    }

    /// Records that every record up to `number` is on disk (a flush made in the turn).
    func noteDurable(upTo number: UInt64) {
        var current = durable.load(ordering: .sequentiallyConsistent)
        while current < number {
            let (exchanged, original) = durable.compareExchange(expected: current, desired: number, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = original
        }
    }
}
