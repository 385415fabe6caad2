/// A tag and how many cards have it (`Tags`, `leitnerctl tags`): the cards tagged with it
/// exactly; a card tagged `ja:kana` counts for `ja:kana`, not for `ja`.
public struct TagCount: Sendable, Equatable {
    public var tag: String
    public var cards: Int

    public init(tag: String, cards: Int) {
        self.tag = tag
        self.cards = cards
    }
}
