/// Reads the review logs of a box kept by several devices (docs/sync.md) as one log: each device
/// writes only its own log, and a reader of the box wants them all, in time order. Each entry
/// comes with `device` set to the device whose log holds it.
///
/// Entries are given in time order, as a merge of the logs: ties go by device id (its UTF-8
/// bytes), then by each log's own order, and each log keeps its own order even where its times go
/// back (a clock set back). A line of the history from before devices (`sharedHistory`) identical
/// in every field but `device` to one given from another device's such history at that moment
/// is given once: after the devices' logs were separated, the log the machines shared before
/// lives in each device's file (docs/sync.md), and its history would otherwise be told twice.
/// Lines written since are never matched: two devices grading a card alike in one second gave
/// two answers. The copies of that shared log are read in step — a copy at the head
/// of another log, with the same time, is passed over as the entry is given — so that two
/// entries of one second (a last grade and the `complete` it wrote) are matched each with its
/// own copy.
///
/// A card a note's new number made is one add, however many devices made it: each machine that
/// saw the number added the same card, and one that saw the card arrive first logged that
/// (R30, docs/sync.md). So an `add` of a card — a daemon's for its note (`origin=note`), or
/// one found by hand (`origin=hand`) — after another device's `add origin=note` of it was
/// given, with no `delete` or `rename` of the card given since, is passed over: that first add
/// stands for all.
///
/// Without a limit the logs are streamed: never more than one piece of `chunkEntries` entries is
/// held per log, whatever their length. With a limit, only the last `limit` entries of the
/// merged stream are given; each reader must be made with the same limit, so that it gives only
/// its last entries, from which the merged last ones are taken.
public final class MergedLogReader {
    /// How many entries are taken from a reader at once.
    static let chunkEntries = 512

    /// One device's log and the piece of it read and not yet given.
    private final class Source {
        let device: String
        let reader: ReviewLogReader
        /// The length of the log's history from before devices (`migrated`): its lines may be
        /// copies of other devices' lines; no later line is.
        let sharedEnd: Int
        private var chunk: [LogEntry] = []
        /// Whether each entry of `chunk` is of the history from before devices.
        private var shared: [Bool] = []
        private var index = 0
        private var finished = false

        init(device: String, reader: ReviewLogReader, sharedEnd: Int) {
            self.device = device
            self.reader = reader
            self.sharedEnd = sharedEnd
        }

        /// True when `head()` is a line of the history from before devices.
        var headIsShared: Bool { index < shared.count && shared[index] }

        /// The next entry of this log, read in if need be; nil at its end.
        func head() throws(BoxError) -> LogEntry? {
            if index == chunk.count {
                guard !finished else { return nil }
                chunk = []
                shared = []
                let sharedEnd = self.sharedEnd
                try reader.next(upTo: MergedLogReader.chunkEntries) { entry, end in
                    chunk.append(entry)
                    shared.append(end <= sharedEnd)
                }
                index = 0
                if chunk.isEmpty {
                    finished = true
                    return nil
                }
                for position in chunk.indices { chunk[position].device = device }
            }
            return chunk[index]
        }

        /// The time of `head()`, read in if need be; nil at the log's end.
        func headTime() throws(BoxError) -> Int64? {
            index < chunk.count ? chunk[index].time : try head()?.time
        }

        /// Passes over the head, which `head()` has read in.
        func advance() { index += 1 }
    }

    /// The logs, by device id: the order of ties.
    private let sources: [Source]
    private let limit: Int?
    /// With a limit, the merged last entries, found at the first `next`; then what is left of them
    /// from `tailIndex` on.
    private var tail: [LogEntry]?
    private var tailIndex = 0
    /// Each card whose `add origin=note` was given, and not deleted or renamed since → the device
    /// whose add was given.
    private var noteAdded: [String: String] = [:]

    /// A reader of `readers` as one log.
    /// - Parameters:
    ///   - readers: each device's log reader, made on the logs as they are now; the order does not
    ///     matter.
    ///   - limit: how many of the merged stream's last entries are given (each reader made with
    ///     the same limit), nil for all.
    ///   - sharedHistory: by device, the length of its log's history from before devices (the
    ///     log the machines shared, moved into each device's file at its migration): only lines
    ///     of that history are given once when two devices hold them; two devices' own lines are
    ///     two events, however alike.
    public init(readers: [(device: String, reader: ReviewLogReader)], limit: Int?, sharedHistory: [String: Int] = [:]) {
        sources = readers
            .map { Source(device: $0.device, reader: $0.reader, sharedEnd: sharedHistory[$0.device] ?? 0) }
            .enumerated()
            .sorted { left, right in
                // A stable order for devices alike (there should be none): their order given.
                left.element.device == right.element.device ? left.offset < right.offset
                    : left.element.device.utf8.lexicographicallyPrecedes(right.element.device.utf8)
            }
            .map(\.element)
        self.limit = limit.map { max(0, $0) }
    }

    /// The next entries, at most `count`, in time order, each with its device; empty once every log
    /// is read to its end.
    /// - Throws: `storeFailure` naming the log that cannot be read.
    public func next(upTo count: Int) throws(BoxError) -> [LogEntry] {
        guard count > 0 else { return [] }
        if let limit {
            if self.tail == nil { self.tail = try lastEntries(limit) }
            let tail = self.tail!
            let end = min(tail.count, tailIndex + count)
            defer { tailIndex = end }
            return Array(tail[tailIndex..<end])
        }
        var entries: [LogEntry] = []
        entries.reserveCapacity(min(count, MergedLogReader.chunkEntries))
        while entries.count < count, let entry = try take() {
            entries.append(entry)
        }
        return entries
    }

    /// The last `limit` entries of the merged stream, holding at most twice as many at once.
    private func lastEntries(_ limit: Int) throws(BoxError) -> [LogEntry] {
        guard limit > 0 else { return [] }
        var kept: [LogEntry] = []
        while let entry = try take() {
            kept.append(entry)
            // Not `2 * limit`, which overflows for a limit of 2^62 or more: `kept` never holds
            // more than twice `limit`, so the difference does not.
            if kept.count - limit == limit { kept.removeFirst(limit) }
        }
        return Array(kept.suffix(limit))
    }

    /// The next entry of the merged stream, another device's add of a card a note's number made
    /// passed over; nil once every log is read.
    private func take() throws(BoxError) -> LogEntry? {
        while let entry = try takeMerged() {
            guard let id = entry.id else { return entry }
            switch entry.event {
            case .add where entry.origin == .note || entry.origin == .hand:
                let device = entry.device ?? ""
                if let by = noteAdded[id], by != device { continue }
                if entry.origin == .note { noteAdded[id] = device }
            case .delete, .rename:
                noteAdded[id] = nil
            default:
                break
            }
            return entry
        }
        return nil
    }

    /// The next entry of the merged stream, its copies at the head of the other logs passed over;
    /// nil once every log is read.
    private func takeMerged() throws(BoxError) -> LogEntry? {
        var earliest: Source?
        var earliestTime = Int64.max
        for source in sources {
            // Strictly earlier: a tie stays with the first device.
            guard let time = try source.headTime(), earliest == nil || time < earliestTime else { continue }
            earliest = source
            earliestTime = time
        }
        guard let earliest, let entry = try earliest.head() else { return nil }
        let shared = earliest.headIsShared
        earliest.advance()
        guard shared else { return entry }
        for source in sources where source !== earliest {
            guard try source.headTime() == entry.time, var copy = try source.head(), source.headIsShared else { continue }
            copy.device = entry.device
            if copy == entry { source.advance() }
        }
        return entry
    }
}
