import LeitnerSystem
import Synchronization

/// Another device's log looked through for the cards it names (`Box.notePeerChanges`), on a
/// thread of its own, never under the box's turn (`BoxOptions.looksApartFrom`). A new machine's
/// clone of a synced store has no marks of how far the other devices' logs were looked through
/// (`PeerReadMarks` are this device's own state, and travel with no copy), so its first request
/// read a year's history of the other device, a million lines, before it answered: seconds
/// (docs/performance.md, "A store copied, then opened"). The box makes the look in its turn — a
/// reader of the log as it ends then — and goes on; the request or tick that finds it done notes
/// the cards it found that are in the store as candidates for settling, as the reading in the
/// turn did, and reads only the lines appended since. A card is only a candidate: settling waits
/// for the store to be quiet anyway, and decides from the logs and the copies alone.
final class PeerLook: @unchecked Sendable {
    // @unchecked: `reader` is used by the look's thread alone once it has started (the box never
    // touches it); what it found is handed over through `outcome`, behind its lock.

    /// Where the look began and where the log ended when it was made.
    let from: Int
    let end: Int
    /// The check of the bytes before `end` (`PeerReadMarks.check`): a log replaced meanwhile by
    /// another history does not match, and is looked through again from its start.
    let check: UInt32?
    private let reader: ReviewLogReader
    private let outcome = Mutex<Result<Set<String>, BoxError>?>(nil)
    private let stopping = Atomic<Bool>(false)

    /// Starts the look of `reader`'s log from `from`; with no thread to be had, it looks now.
    init(reader: ReviewLogReader, from: Int, check: UInt32?) {
        self.from = from
        end = reader.end
        self.check = check
        self.reader = reader
        if DetachedThread.start({ self.run() }) != nil { run() }
    }

    /// The ids the lines name (as the card, or as a rename's new id), once the look is done; nil
    /// while it reads (or was stopped).
    /// - Throws: what reading the log failed with.
    func ids() throws(BoxError) -> Set<String>? {
        switch outcome.withLock({ $0 }) {
        case nil: return nil
        case .success(let ids): return ids
        case .failure(let error): throw error
        }
    }

    /// Stops the thread within 4,096 lines: the box closes, or the device is gone.
    func stop() { stopping.store(true, ordering: .relaxed) }

    private func run() {
        var ids = Set<String>()
        do throws(BoxError) {
            while !stopping.load(ordering: .relaxed), try reader.next(upTo: 4096, { entry, _ in
                if let id = entry.id { ids.insert(id) }
                if let id = entry.renamedTo { ids.insert(id) }
            }) > 0 {}
        } catch {
            outcome.withLock { $0 = .failure(error) }
            return
        }
        guard !stopping.load(ordering: .relaxed) else { return }
        outcome.withLock { $0 = .success(ids) }
    }
}
