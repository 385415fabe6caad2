/// A change to the store that the daemon did not make (R13, R14): found by the inotify watch or
/// by a rescan, and applied to the open test by R8.
enum HandChange: Equatable {
    /// A card directory appeared in a level (created, or moved in from outside the store).
    case appeared(id: String, level: Level)
    /// A card directory moved from one level to another.
    case moved(id: String, from: Level, to: Level)
    /// A card directory left the store (removed, or moved out).
    case disappeared(id: String, from: Level)
    /// A loose pair was adopted as a card (R14).
    case adopted(id: String, level: Level)

    var id: String {
        switch self {
        case .appeared(let id, _), .moved(let id, _, _), .disappeared(let id, _), .adopted(let id, _): id
        }
    }
}
