/// Which cards a practice session is of (R27, `leitnerctl practice`): the cards every given
/// part selects. Nothing given is every card of the box.
public struct PracticeSelection {
    /// By tag (R25).
    public var filter: TagFilter
    /// Only cards in these levels; nil or empty for any.
    public var levels: [Level]?
    /// Only cards whose id, front or back holds this (as `Search`).
    public var pattern: SearchPattern?
    /// Only cards answered wrong — in a test or in practice — on one of the last `wrongDays`
    /// logical days, today included.
    public var wrongDays: Int?
    /// The most cards given; `PracticeSelection.defaultLimit` when nil.
    public var limit: Int?
    /// In a random order, rather than by level then id.
    public var shuffle: Bool

    /// The cards a session holds when no limit is given: more than a sitting's worth, few enough
    /// for one reply of their text.
    public static let defaultLimit = 100
    /// The most a session may ask for: each card comes with its text in one reply.
    public static let maxLimit = 1000
    /// The longest `wrongDays` window.
    public static let maxWrongDays = 3660

    public init(filter: TagFilter = .all, levels: [Level]? = nil, pattern: SearchPattern? = nil, wrongDays: Int? = nil,
                limit: Int? = nil, shuffle: Bool = false) {
        self.filter = filter
        self.levels = levels
        self.pattern = pattern
        self.wrongDays = wrongDays
        self.limit = limit
        self.shuffle = shuffle
    }
}
