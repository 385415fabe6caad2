/// Where an event of the review log leaves a card: in a level, or out of the box (deleted, or
/// renamed away). Ordered (deleted first, then the levels) only so that `SettlePlanner` can break
/// a tie between two events claiming the same id the same way on every device.
enum SettlePlacement: Sendable, Hashable, Comparable, CustomStringConvertible {
    case deleted
    case level(Level)

    /// The placement of card `id` by `entry`, nil when the entry does not place that card
    /// (another card's event, `skip`, `complete`, or a line missing its level).
    init?(of entry: LogEntry, for id: String) {
        switch entry.event {
        case .skip, .complete:
            return nil
        case .rename:
            // The new id is placed where the card was (FROM and TO hold its level); the old id
            // is gone from the box, as if deleted.
            if entry.renamedTo == id, let level = entry.to ?? entry.from {
                self = .level(level)
            } else if entry.id == id {
                self = .deleted
            } else {
                return nil
            }
        case .delete:
            guard entry.id == id else { return nil }
            self = .deleted
        case .practice:
            // An answer that moved nothing (R27) places nothing.
            return nil
        case .add, .grade, .move, .undo, .edit:
            // `undo` logs the level the card returns to as TO (Box.undo); `edit` its level as
            // FROM and TO. A `move` without TO is not written by the daemon (a card gone is a
            // `delete`); a hand-written one places nothing.
            guard entry.id == id, let level = entry.to ?? (entry.event == .edit ? entry.from : nil) else { return nil }
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
