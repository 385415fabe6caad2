/// How a change in the review log came about (`LogEntry.origin`): the words are those of the log
/// line (`origin=hand`) and of `LogEntry.origin` on the wire, unchanged.
public enum LogOrigin: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Made in the store by hand (R13).
    case hand
    /// Found as a copy beside the card's other copy: a sync tool's delivery (docs/sync.md).
    case copy
    /// The box settling a card after a sync (docs/sync.md).
    case sync
    /// An adopted loose pair (R14).
    case adopt
    /// A new card admitted into level 1 (R23): moved from `new/` when the day's test opened,
    /// or added straight into level 1 while the day's admissions were fewer than `NewPerDay=`.
    case admit
    /// The wrong answer that made a card a leech and suspended it (R24, `SuspendLeeches=yes`).
    case leech
    /// The move this device made for a grade a browser kept offline and sent later (R35): the
    /// browser's own line is in its log, `kept=DEVICE:SEQ` names it on both.
    case kept
    /// A cloze card added because its note holds a number no card held (R30): every machine that
    /// sees the number adds the same card, and the merged history gives the add once
    /// (`MergedLogReader`, docs/sync.md).
    case note
    /// A word this version does not know, from a newer program's log: kept and shown as it is.
    case other(String)

    public init(rawValue: String) {
        switch rawValue {
        case "hand": self = .hand
        case "copy": self = .copy
        case "sync": self = .sync
        case "adopt": self = .adopt
        case "admit": self = .admit
        case "leech": self = .leech
        case "kept": self = .kept
        case "note": self = .note
        default: self = .other(rawValue)
        }
    }

    /// A known word written in the code (tests, fixtures): a misspelt one is a bug, not a new
    /// origin, so it stops a debug build.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
        if case .other = self { assertionFailure("'\(value)' is no origin of a log entry") }
    }

    public var rawValue: String {
        switch self {
        case .hand: "hand"
        case .copy: "copy"
        case .sync: "sync"
        case .adopt: "adopt"
        case .admit: "admit"
        case .leech: "leech"
        case .kept: "kept"
        case .note: "note"
        case .other(let word): word
        }
    }

    public var description: String { rawValue }
}
