/// Which cards a request is about, by their tags (R25, R26): a card is selected when it has a
/// tag `tags` selects (any one of them: `--tag ja --tag de` is Japanese or German; none given
/// selects every card), and no tag `notTags` selects.
public struct TagFilter: Sendable, Equatable {
    public var tags: [String]
    public var notTags: [String]

    /// The filter that selects every card.
    public static let all = TagFilter()

    /// - Throws: `invalidTag` for a tag that breaks R25's rules: a filter of a tag no card can
    ///   have is a mistake worth saying, not an empty answer.
    public init(tags: [String] = [], notTags: [String] = []) throws(BoxError) {
        for tag in tags + notTags { try CardTag.validate(tag) }
        self.tags = tags
        self.notTags = notTags
        selectors = tags.map { Array($0.utf8)[...] }
        excluded = notTags.map { Array($0.utf8)[...] }
    }

    private init() {
        tags = []
        notTags = []
        selectors = []
        excluded = []
    }

    /// True when the filter selects every card.
    public var isEmpty: Bool { tags.isEmpty && notTags.isEmpty }

    /// True when a card with `cardTags` is selected.
    public func selects(_ cardTags: [String]) -> Bool {
        // Their UTF-8 views, not copies of them: a listing by tag asks this of each of 10,000
        // tagged cards before its first line, and the copies were three allocations a card.
        selects(cardTags.lazy.map(\.utf8))
    }

    /// `selects(_:)` on the tags' UTF-8 bytes.
    func selects<Tags: Sequence>(_ cardTags: Tags) -> Bool where Tags.Element: Collection<UInt8> {
        if !selectors.isEmpty, !cardTags.contains(where: { tag in selectors.contains { CardTag.selects($0, tag) } }) {
            return false
        }
        return !cardTags.contains { tag in excluded.contains { CardTag.selects($0, tag) } }
    }

    public static func == (a: TagFilter, b: TagFilter) -> Bool { a.tags == b.tags && a.notTags == b.notTags }

    private var selectors: [ArraySlice<UInt8>]
    private var excluded: [ArraySlice<UInt8>]
}
