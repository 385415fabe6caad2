/// A card's position in a listing's order — by level (or place), then by id as strings compare
/// (`io.leitner.Box` type `ListPosition`): where a page of a `List` begins or ends, so that the
/// next page begins after its last card wherever cards have moved meanwhile.
public struct ListPosition: Sendable, Equatable {
    public var level: Level
    public var id: String

    public init(level: Level, id: String) {
        self.level = level
        self.id = id
    }
}
