/// Settling a card that a sync left in two levels, or deleted on one device and moved on another
/// (docs/sync.md, "Settling a card after a sync"). Each device writes only its own review log and
/// reads the others'; the decision is a function of those logs' lines and of the copies on disk
/// alone — never of the device that runs it, nor of the order the lines are read in — so that
/// every device that has the same lines reaches the same answer, and no two devices remove each
/// other's copy.
///
/// The rules, in order:
/// - A line found as a copy beside the card's other copy (`origin=copy`) neither explains a copy
///   nor wins: a person's move leaves one copy, so such a line is a sync tool's delivery, the echo
///   of another device's line that may not have arrived yet. It only overtakes its device's
///   earlier lines.
/// - An event's *placement* is where it leaves the card (`SettlePlacement`).
/// - A device's *standing* events are its last word on the card (its latest line, by offset: a
///   device only appends) and its last word of its own (its latest line not found by hand). An
///   earlier line of a device has been overtaken on that device, so it neither explains a copy
///   nor wins: a card a sync tool took out of a level a moment before putting it into another is
///   not deleted by the `delete origin=hand` logged in between.
/// - An *arrival* is a standing event found by hand (`origin=hand`) on device D whose placement is
///   that of another device E's last word, made no later (`LogEntry.made`, else its time; at the
///   same time, the line of the device whose name sorts first stands): D's daemon saw the sync tool deliver E's change. It
///   cannot tell that from a person's `mv`; an arrival is not ranked, since it only repeats E's
///   change at a later time. Matched against E's last word only, not its history nor its last
///   word of its own, so that a level the card had on E before (even by E's own grade, since
///   overtaken by a sync) does not turn a person's move on D into an arrival.
/// - Every copy must be *explained*: its level is the placement of some device's standing event
///   (arrivals included). Otherwise the log that put it there has not arrived, or a person copied
///   it: wait — unless the copy was left behind by its own device (a line of that device put it
///   there, and its next line acted on another copy) and the winner's level holds a copy: the
///   logs say where the card is (R18).
/// - With one copy left, a device's latest line that is a copy line at that copy counts as found
///   by hand: the copy it served is the card's only folder now.
/// - The newest ranked standing event — the greatest (time, device, offset) — names the winner.
///   With two or more copies its level is kept. With one copy the card is removed when the
///   winner deleted it, moved when the winner is a device's own event (not found by hand, nor an
///   edit, which changes content and not place) that put it in another level, and otherwise left
///   alone.
enum SettlePlanner {
    /// - Parameters:
    ///   - id: the card.
    ///   - copies: the levels whose directory holds a directory named `id`.
    ///   - partial: those of `copies` whose directory holds only a part of the card (a partial
    ///     delivery, docs/sync.md "A store a sync tool is changing"): content, not a place. They
    ///     explain nothing and are never kept; an `edit` line in such a level does not place the
    ///     card. Without a whole copy, the card waits.
    ///   - events: lines of every device's log (those of other cards and days are passed over), in
    ///     any order. `(device, offset)` is assumed unique; should it repeat, the tie is still
    ///     broken the same way on every device.
    static func decide(id: String, copies: Set<Level>, partial: Set<Level> = [], events: [DeviceEvent]) -> SettleDecision {
        guard !partial.isEmpty else { return decide(id: id, copies: copies, events: events) }
        let whole = copies.subtracting(partial)
        guard !whole.isEmpty else {
            return .wait("card '\(id)' (in \(names(copies.sorted()))): no folder holds the whole card yet")
        }
        let placing = events.filter { event in
            !(event.entry.event == .edit && event.entry.id == id
              && (event.entry.to ?? event.entry.from).map(partial.contains) == true)
        }
        return decide(id: id, copies: whole, events: placing)
    }

    /// The decision for copies that each hold the whole card (the rules above).
    static func decide(id: String, copies: Set<Level>, events: [DeviceEvent]) -> SettleDecision {
        guard !copies.isEmpty else { return .nothing }
        let levels = copies.sorted()
        let listed = "'\(id)' (in \(names(levels)))"
        var placed = placedLines(events, for: id)
        if copies.count == 1 { takeLoneCopyLines(in: &placed, at: levels[0]) }
        guard placed.contains(where: { !$0.isCopy }) else {
            return copies.count >= 2 ? .wait("no device's log has an event of card \(listed) yet") : .nothing
        }

        let (standing, winner) = rank(placed)
        for level in levels where !standing.contains(where: { $0.placement == .level(level) }) {
            // A copy its own device left behind (`isLeftBehind`) is that device's past. Once the
            // winner names a level that holds a copy, it is settled with the others (R18: a card
            // is in exactly one level); without a winner's copy to keep, and for any other copy no
            // standing line explains, the log that put it there may be on its way.
            if copies.count >= 2, let kept = winner?.placement.level, copies.contains(kept), isLeftBehind(level, placed) {
                continue
            }
            return .wait("card \(listed): no device's log last put it in level \(level) — that log has not arrived yet, "
                         + "or the copy was made by hand")
        }
        guard let winner else {
            // Every device's last word repeats another's: only same-time hand lines do that.
            return copies.count >= 2 ? .wait("card \(listed): every device's last event echoes another's") : .nothing
        }
        let by = "the newest event, \(winner.event.entry.event.rawValue)\(winner.byHand ? " origin=hand" : "") "
            + "on device '\(winner.event.device)'"
        if copies.count == 1 {
            switch winner.placement {
            case .deleted:
                return .remove
            case .level(let level) where level != levels[0] && !winner.byHand && winner.event.entry.event != .edit:
                // A device's own newer event put it elsewhere: the copy here came by an older
                // move, delivered by the sync tool after it (both explain the copy). An edit
                // changed the card's content, not its place: its side arrives on its own, and is
                // merged into this copy (docs/sync.md, "A store a sync tool is changing").
                return .move(level)
            case .level:
                return .nothing
            }
        }
        guard let level = winner.placement.level else {
            return .wait("card \(listed): \(by), deleted it; a newer move has not arrived yet, or the copies were made by hand")
        }
        guard copies.contains(level) else {
            return .wait("card \(listed): \(by), put it in level \(level), where there is no copy yet")
        }
        return .keep(level)
    }

    /// The lines that stand (each device's last word and last word of its own) and the winner,
    /// the newest of those ranked (the rules above), among `placed`.
    private static func rank(_ placed: [Placed]) -> (standing: [Placed], winner: Placed?) {
        // Each device's last word, last word of its own, and latest line of all, by the bytes of
        // its name (two names Unicode deems equal are still two directories).
        var lastWord: [[UInt8]: Int] = [:], lastOwn: [[UInt8]: Int] = [:], latest: [[UInt8]: Int] = [:]
        for index in placed.indices {
            let item = placed[index]
            if latest[item.device].map({ item.laterOnDevice(than: placed[$0]) }) ?? true { latest[item.device] = index }
            if item.isCopy { continue }
            if lastWord[item.device].map({ item.laterOnDevice(than: placed[$0]) }) ?? true { lastWord[item.device] = index }
            if !item.byHand, lastOwn[item.device].map({ item.laterOnDevice(than: placed[$0]) }) ?? true {
                lastOwn[item.device] = index
            }
        }
        // A line found as a copy beside the card's other copy (`origin=copy`) is a sync tool's
        // delivery, the echo of another device's line that may not have arrived yet: it neither
        // explains a copy nor wins.
        let standing = Set(lastWord.values).union(lastOwn.values).sorted().map { placed[$0] }
        // What each device says now, its last word: an echo repeats that. A device whose latest
        // line is a copy line says nothing now — the card moved on there since its last word,
        // which may be stale, and must not make a person's later move look like its echo.
        let saysNow = lastWord.filter { latest[$0.key] == $0.value }.values.sorted().map { placed[$0] }

        // Two hand lines alike at one time (a millisecond; a second in older logs) cannot both be
        // the echo of the other: the one of the device whose name sorts first stands. Both put
        // the card in the same place, so which one stands does not change the answer.
        let ranked = standing.filter { item in
            !(item.byHand && saysNow.contains { other in
                other.device != item.device && other.placement == item.placement
                    && (other.time < item.time
                        || (other.time == item.time && (!other.byHand || other.device.lexicographicallyPrecedes(item.device))))
            })
        }
        return (standing, ranked.max(by: { $1.isNewer(than: $0) }))
    }

    /// When the winner among `events` was made (`Placed.time`), nil when no line ranks: the time
    /// as of which what the logs say of card `id`, in `copies`, holds. A device that writes down
    /// the decision (a browser's kept grade, R35) ranks its line as of then, so that it stands
    /// for the winner and not for a newer or older event.
    static func newest(id: String, copies: Set<Level>, events: [DeviceEvent]) -> Int64? {
        var placed = placedLines(events, for: id)
        if copies.count == 1, let level = copies.first { takeLoneCopyLines(in: &placed, at: level) }
        return rank(placed).winner?.time
    }

    /// The lines of `events` that can still settle card `id` in one level (`decide` with one
    /// copy, and `newest`), by device: its latest line that places the card, its latest not found
    /// as a copy, and its latest of its own. Every other line is overtaken on its device, and
    /// neither stands nor is the latest there whatever that device appends later: the rules of a
    /// lone copy never read it again (a copy `isLeftBehind` needs two).
    static func standing(_ events: [DeviceEvent], for id: String) -> [DeviceEvent] {
        var latest: [String: DeviceEvent] = [:], notCopy: [String: DeviceEvent] = [:], own: [String: DeviceEvent] = [:]
        for event in events where SettlePlacement(of: event.entry, for: id) != nil {
            func later(_ known: DeviceEvent?) -> Bool { known.map { event.offset > $0.offset } ?? true }
            if later(latest[event.device]) { latest[event.device] = event }
            guard event.entry.origin != .copy else { continue }
            if later(notCopy[event.device]) { notCopy[event.device] = event }
            if event.entry.origin != .hand, later(own[event.device]) { own[event.device] = event }
        }
        var kept: [DeviceEvent] = []
        for event in Array(latest.values) + Array(notCopy.values) + Array(own.values) where !kept.contains(event) {
            kept.append(event)
        }
        return kept
    }

    /// The lines of `events` that place card `id`.
    private static func placedLines(_ events: [DeviceEvent], for id: String) -> [Placed] {
        events.compactMap { event in SettlePlacement(of: event.entry, for: id).map { Placed(event, $0) } }
    }

    /// True when some device put the card in `level` and its next line (not a copy line) acted on
    /// the card from another level: that device then held a second copy, served it, and left the
    /// one in `level` behind — its own line explains that copy, and its later lines overtake it.
    /// A level a device's history merely passed through (the next line moves from there) is not
    /// left behind: the copy there may be a newer line's, on its way.
    private static func isLeftBehind(_ level: Level, _ placed: [Placed]) -> Bool {
        let own = placed.filter { !$0.isCopy }.sorted { $0.device.lexicographicallyPrecedes($1.device) || ($0.device == $1.device && $0.event.offset < $1.event.offset) }
        for (line, next) in zip(own, own.dropFirst()) where line.device == next.device && line.placement == .level(level) {
            if let from = next.event.entry.from, from != level { return true }
        }
        return false
    }

    /// With one copy left, a device whose latest line about the card is a copy line at that copy
    /// (it served a copy found beside another, then the others went) changed the card's only
    /// folder: that line counts as found by hand, ranked by when the copy was made (`made=`).
    /// Without it no line might explain the card's level, and settling would wait for good.
    private static func takeLoneCopyLines(in placed: inout [Placed], at level: Level) {
        var latest: [[UInt8]: Int] = [:]
        for index in placed.indices where latest[placed[index].device].map({ placed[index].laterOnDevice(than: placed[$0]) }) ?? true {
            latest[placed[index].device] = index
        }
        for index in latest.values where placed[index].isCopy && placed[index].placement == .level(level) {
            placed[index].isCopy = false
            placed[index].byHand = true
        }
    }

    private static func names(_ levels: [Level]) -> String {
        levels.count == 1 ? "level \(levels[0])" : "levels " + levels.map(\.name).joined(separator: ", ")
    }
}
