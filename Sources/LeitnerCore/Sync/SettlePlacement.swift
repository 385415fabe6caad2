/// Where an event of the review log leaves a card: in a level, or out of the box (deleted, or
/// renamed away). Ordered (deleted first, then the levels) only so that `SettlePlanner` can break
/// a tie between two events claiming the same id the same way on every device.
enum SettlePlacement: Sendable, Hashable, Comparable, CustomStringConvertible {
    case deleted
    case level(Level)

    /// The placement of card `id` by `entry`, nil when the entry does not place that card
    /// (another card's event, `skip`, `complete`, or a line missing its level).
    init?(of entry: LogEntry, for id: String) {
        self.init(entry.event, from: entry.from, to: entry.to, isID: entry.id == id, isRenamedTo: entry.renamedTo == id)
    }

    /// The placement by a line of `event`, FROM and TO, of the card that is the line's id
    /// (`isID`), its new id (`isRenamedTo`), or both; for a reading that compares ids as bytes.
    init?(_ event: LogEntry.Event, from: Level?, to: Level?, isID: Bool, isRenamedTo: Bool) {
        switch event {
        case .skip, .complete:
            return nil
        case .rename:
            // The new id is placed where the card was (FROM and TO hold its level); the old id
            // is gone from the box, as if deleted.
            if isRenamedTo, let level = to ?? from {
                self = .level(level)
            } else if isID {
                self = .deleted
            } else {
                return nil
            }
        case .delete:
            guard isID else { return nil }
            self = .deleted
        case .practice:
            // An answer that moved nothing (R27) places nothing.
            return nil
        case .add, .grade, .move, .undo, .edit:
            // `undo` logs the level the card returns to as TO (Box.undo); `edit` its level as
            // FROM and TO. A `move` without TO is not written by the daemon (a card gone is a
            // `delete`); a hand-written one places nothing.
            guard isID, let level = to ?? (event == .edit ? from : nil) else { return nil }
            self = .level(level)
        }
    }

    var level: Level? {
        if case .level(let level) = self { return level }
        return nil
    }

    var description: String {
        switch self {
        case .deleted: "deleted"
        case .level(let level): "level \(level)"
        }
    }

    static func < (a: SettlePlacement, b: SettlePlacement) -> Bool {
        switch (a, b) {
        case (.deleted, .level): true
        case (.level(let x), .level(let y)): x < y
        default: false
        }
    }
}
