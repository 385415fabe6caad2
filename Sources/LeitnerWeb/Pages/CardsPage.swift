import LeitnerCore

/// Cards: the search form, and one page of the cards found (or of every card), with links to
/// each card's page and to the next and previous pages.
public enum CardsPage {
    /// Cards a page: found, or listed a page at a time from the daemon (`List` with `limit`).
    public static let pageSize = 100

    /// What the page says of where it is, and its links to the pages around it.
    public struct Paging: Sendable, Equatable {
        /// "1–100 of 1,234 cards", or what is known of it.
        public var summary: String
        /// The query (after the filter's) of the page before and of the page after, nil for none.
        public var previous: String?
        public var next: String?
        /// For a search's page past its last match (`page=5` of 130 cards): the query of the
        /// page the matches end on, which the page links in place of saying no card matches.
        public var last: String?

        public init(summary: String, previous: String?, next: String?, last: String? = nil) {
            self.summary = summary
            self.previous = previous
            self.next = next
            self.last = last
        }
    }

    /// A card's position as a page's link names it (`3/hola`): its level, then its id, which
    /// holds no `/` (R20).
    public static func positionText(_ position: ListPosition) -> String {
        position.level.name + "/" + position.id
    }

    /// The position a link names, nil for one that names none.
    public static func position(from text: String) -> ListPosition? {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let level = Level(name: parts[0]), CardID.isValid(String(parts[1])) else { return nil }
        return ListPosition(level: level, id: String(parts[1]))
    }

    /// A card in the list: its id and level, and the lines that matched (none when listing).
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var level: Level
        public var lines: [String]

        public init(id: String, level: Level, lines: [String]) {
            self.id = id
            self.level = level
            self.lines = lines
        }
    }

    /// What the list is narrowed to: the search text (empty: none), a tag, a level or place.
    public struct Filter: Sendable, Equatable {
        public var text: String
        public var tag: String?
        public var level: Level?

        public init(text: String = "", tag: String? = nil, level: Level? = nil) {
            self.text = text
            self.tag = tag
            self.level = level
        }

        public var isEmpty: Bool { text.isEmpty && tag == nil && level == nil }

        /// The address's query for this filter, each part escaped, ending in `&` when not empty
        /// so that a page number can follow.
        public var queryPrefix: String {
            var parts: [String] = []
            if !text.isEmpty { parts.append("q=" + PercentEncoding.encode(text)) }
            if let tag { parts.append("tag=" + PercentEncoding.encode(tag)) }
            if let level { parts.append("level=" + level.name) }
            return parts.map { $0 + "&" }.joined()
        }
    }

    /// A side's first line, cut to 80 characters, for a line of the list.
    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }

    /// `entries` are this page's; `paging` says where it is; `tags` are the box's tags, offered
    /// in the filter.
    public static func html(filter: Filter, tags: [TagCount], entries: [Entry], paging: Paging,
                            box: String? = nil) -> HTML {
        var body: HTML = "<h1>Cards</h1>\n<p><a class=\"button primary\" id=\"add-card\" href=\"/cards/new\">Add a card</a></p>\n<form class=\"search\" method=\"get\" action=\"/cards\" role=\"search\">"
        body += "<input type=\"search\" name=\"q\" value=\"\(filter.text)\" placeholder=\"Search cards\" aria-label=\"Search ids, fronts and backs\">"
        body += "<button type=\"submit\">Search</button>"
        // The filters are in the same form, so a search keeps them (and they work without script).
        body += "<div class=\"filters\">"
        body += "<select name=\"tag\" id=\"tag\" aria-label=\"Tag\"><option value=\"\">Any tag</option>"
        var offered = tags.map(\.tag)
        // A tag no card has any more (an old link) is still shown as chosen.
        if let tag = filter.tag, !offered.contains(tag) { offered.insert(tag, at: 0) }
        for tag in offered {
            let count = tags.first { $0.tag == tag }.map { " (\($0.cards))" } ?? ""
            body += "<option value=\"\(tag)\"\(tag == filter.tag ? " selected" : "" as HTML)>\(tag)\(count)</option>"
        }
        body += "</select><select name=\"level\" id=\"level\" aria-label=\"Level\"><option value=\"\">Any level</option>"
        for level in Level.allCases {
            let label = level.isPlace || level == .finished ? level.name : "level \(level.name)"
            body += "<option value=\"\(level.name)\"\(level == filter.level ? " selected" : "" as HTML)>\(label)</option>"
        }
        body += "</select></div></form>\n"
        if let tag = filter.tag {
            // The review of this tag's cards only: `Next` with the filter, as `leitnerctl review --tag`.
            body += "<p><a class=\"button\" id=\"review-tag\" href=\"/review?tag=\(PercentEncoding.encode(tag))\">Review the cards tagged \(tag)</a></p>\n"
        }
        let base = "/cards?" + filter.queryPrefix
        if entries.isEmpty, let last = paging.last {
            // Cards match, on pages before this one: an old link, or a page number typed.
            body += "<p id=\"shown\">\(paging.summary)</p>\n"
            body += "<p><a class=\"button\" id=\"last-page\" href=\"\(base)\(last)\">Go to the last page</a></p>\n"
        } else if entries.isEmpty {
            body += "<p>\(filter.isEmpty ? "The box has no card." : "No card matches.")</p>\n"
        } else {
            body += "<p class=\"muted\" id=\"shown\">\(paging.summary)</p>\n"
            body += "<ul class=\"results\">"
            for entry in entries {
                // The whole row is the link, at least 48 px high: the front (or the lines found)
                // first, the id and level under it.
                body += "<li><a href=\"/cards/\(PercentEncoding.encode(entry.id))\">"
                for line in entry.lines.prefix(3) { body += "<span class=\"plain\">\(line)</span>" }
                body += "<span class=\"muted\">\(entry.id) · \(entry.level.isPlace || entry.level == .finished ? entry.level.name : "level " + entry.level.name)</span>"
                body += "</a></li>"
            }
            body += "</ul>\n"
        }
        body += "<nav class=\"pages\">"
        body += paging.previous.map { "<a href=\"\(base)\($0)\" rel=\"prev\">← Previous</a>" as HTML } ?? "<span></span>"
        body += paging.next.map { "<a href=\"\(base)\($0)\" rel=\"next\">Next →</a>" as HTML } ?? "<span></span>"
        body += "</nav>\n"
        return Layout.page(title: "Cards", section: .cards, body: body, box: box)
    }
}
