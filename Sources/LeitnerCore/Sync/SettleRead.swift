import LeitnerSystem
import Synchronization

/// The lines of every device's log about the cards a settling pass decides (`Box.settle`), read
/// on a thread of its own and never under the box's turn (`BoxOptions.settlesApartFrom`): a synced
/// machine's history is a million lines or more, about a second to read, and every request
/// waited for it while a delivery settled. The box makes it in the turn — a reader of each log
/// as it ends then — and goes on; the pass that finds it done reads, in its turn, only the lines
/// appended since (`Box.caughtUp`), so that each log's bytes are read once a pass.
final class SettleRead: @unchecked Sendable {
    // @unchecked: `readers` are used by the read's thread alone once it has started (the box
    // never touches them); what it found is handed over through `outcome`, behind its lock.

    /// One device's log as the read found it.
    struct Log: Sendable {
        var device: String
        /// Where the log ended when the read was made: what it reads, and where the pass goes on.
        var end: Int
        /// The check of the bytes before `end` (`PeerReadMarks.check`): a log replaced since by
        /// another history does not match, and the read is made again.
        var check: UInt32?
    }

    /// The cards whose lines are kept.
    let ids: Set<String>
    let logs: [Log]
    /// The readers, each its own descriptor on its log (`ReviewLogReader` needs no box once made).
    private let readers: [(device: String, reader: ReviewLogReader)]
    private let outcome = Mutex<Result<[String: [DeviceEvent]], BoxError>?>(nil)
    private let stopping = Atomic<Bool>(false)

    /// Makes the readers of every device's log (`readers`, this device's first) and starts the
    /// thread. With no thread to be had, the lines are read now, as without `settlesApartFrom`.
    init(ids: Set<String>, readers: [(device: String, reader: ReviewLogReader)], checks: [UInt32?]) {
        self.ids = ids
        logs = zip(readers, checks).map { Log(device: $0.device, end: $0.reader.end, check: $1) }
        self.readers = readers
        if DetachedThread.start({ self.run() }) != nil { run() }
    }

    /// The lines read, once the thread is done; nil while it reads (or was stopped).
    /// - Throws: what reading a log failed with.
    func events() throws(BoxError) -> [String: [DeviceEvent]]? {
        switch outcome.withLock({ $0 }) {
        case nil: return nil
        case .success(let events): return events
        case .failure(let error): throw error
        }
    }

    /// Stops the thread within 4,096 lines: the box closes, or the cards to read changed.
    func stop() { stopping.store(true, ordering: .relaxed) }

    private func run() {
        var events: [String: [DeviceEvent]] = [:]
        do throws(BoxError) {
            for (device, reader) in readers {
                while !stopping.load(ordering: .relaxed), try SettleRead.take(device, reader, ids, into: &events) > 0 {}
            }
        } catch {
            outcome.withLock { $0 = .failure(error) }
            return
        }
        guard !stopping.load(ordering: .relaxed) else { return }
        outcome.withLock { $0 = .success(events) }
    }

    /// The lines of every log of `readers` that name one of `ids`, read to their ends here.
    static func take(_ readers: [(device: String, reader: ReviewLogReader)], _ ids: Set<String>) throws(BoxError) -> [String: [DeviceEvent]] {
        var events: [String: [DeviceEvent]] = [:]
        for (device, reader) in readers {
            while try take(device, reader, ids, into: &events) > 0 {}
        }
        return events
    }

    /// Adds the next 4,096 lines of `device`'s log that name one of `ids` (as the card, or as
    /// the new id of a rename) to that card's events; how many lines were read, 0 at the end.
    @discardableResult
    static func take(_ device: String, _ reader: ReviewLogReader, _ ids: Set<String>,
                     into events: inout [String: [DeviceEvent]]) throws(BoxError) -> Int {
        try reader.next(upTo: 4096) { entry, end in
            if let id = entry.id, ids.contains(id) { events[id, default: []].append(DeviceEvent(device: device, offset: end, entry: entry)) }
            if let id = entry.renamedTo, ids.contains(id), entry.id != id {
                events[id, default: []].append(DeviceEvent(device: device, offset: end, entry: entry))
            }
        }
    }
}
