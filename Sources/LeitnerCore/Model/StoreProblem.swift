/// A problem found in the store (R14 lone halves, R21 damaged cards, leftovers).
public struct StoreProblem: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A card directory without exactly one front and one back, or with an unreadable asset.
        case damagedCard
        /// Half of a loose pair, or a loose pair that cannot be adopted (R14).
        case loosePair
        /// A card id that is also found in another level (R18).
        case duplicateCard
        /// A symbolic link leading out of the store (R22).
        case outsideLink
        /// An entry in a level directory that is not a card.
        case strayEntry
        /// A damaged line or file of the box's own state in `.leitner/` (the log, the open test).
        case damagedState
        /// What a file-sync tool left: a conflict copy of a side, of a loose file or of a card's
        /// directory, or git's conflict markers in a text side (docs/sync.md); or a card it is
        /// still moving, in transit (docs/sync.md, "A store a sync tool is changing").
        case syncConflict
        /// A line of a card's `tags` file that is no tag, or a `tags` file that cannot be read:
        /// ignored, the card is not damaged (R25).
        case badTag
        /// A side's reference to a picture or a sound (R31) whose name is not one file name,
        /// or whose file is missing: shown as text, the card is not damaged.
        case badMedium
    }
    public var kind: Kind
    /// The path of the entry.
    public var path: String
    /// What is wrong.
    public var reason: String
    /// What the user can do about it.
    public var advice: String

    public init(kind: Kind, path: String, reason: String, advice: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.advice = advice
    }
}
