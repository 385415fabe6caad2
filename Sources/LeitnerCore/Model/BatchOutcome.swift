/// What became of each card of a batch (`AddMany`), by its index in the batch: added, already
/// present, or refused with the error `Add` would have given it.
public struct BatchOutcome: Sendable, Equatable {
    /// A card added: its index, its id and its level.
    public struct Added: Sendable, Equatable {
        public var index: Int
        public var id: String
        public var level: Level
        /// The id of its reverse card, added beside it (R28), when one was asked for.
        public var reverse: String?

        public init(index: Int, id: String, level: Level, reverse: String? = nil) {
            self.index = index
            self.id = id
            self.level = level
            self.reverse = reverse
        }
    }

    /// A card already in the box — the id asked for, or, when duplicates are not allowed, the
    /// same text front — or earlier in the same batch; `id` names that card.
    public struct Present: Sendable, Equatable {
        public var index: Int
        public var id: String

        public init(index: Int, id: String) {
            self.index = index
            self.id = id
        }
    }

    /// A card that cannot be added, and why.
    public struct Refused: Sendable, Equatable {
        public var index: Int
        public var error: BoxError

        public init(index: Int, error: BoxError) {
            self.index = index
            self.error = error
        }
    }

    public var added: [Added] = []
    public var present: [Present] = []
    public var refused: [Refused] = []

    public init(added: [Added] = [], present: [Present] = [], refused: [Refused] = []) {
        self.added = added
        self.present = present
        self.refused = refused
    }
}
