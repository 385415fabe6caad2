import LeitnerCore

/// Cards: the search form, and one page of the cards found (or of every card), with links to
/// each card's page and to the next and previous pages.
public enum CardsPage {
    public static let pageSize = 50

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

    /// `entries` are this page's; `total` counts them all; `page` is 0-based.
    public static func html(query: String, entries: [Entry], total: Int, page: Int) -> String {
        var body = "<h1>Cards</h1>\n<form class=\"search\" method=\"get\" action=\"/cards\" role=\"search\">"
        body += "<input type=\"search\" name=\"q\" value=\"\(HTML.escape(query))\" placeholder=\"Search ids, fronts and backs\" aria-label=\"Search\">"
        body += "<button type=\"submit\">Search</button></form>\n"
        let first = page * pageSize
        if total == 0 {
            body += "<p>\(query.isEmpty ? "The box has no card." : "No card matches.")</p>\n"
        } else {
            body += "<p class=\"muted\">\(first + 1)–\(first + entries.count) of \(total) card\(total == 1 ? "" : "s")\(query.isEmpty ? "" : " matching")</p>\n"
            body += "<ul class=\"results\">"
            for entry in entries {
                body += "<li><a href=\"/cards/\(PercentEncoding.encode(entry.id))\">\(HTML.escape(entry.id))</a> "
                body += "<span class=\"muted\">level \(entry.level.name)</span>"
                for line in entry.lines.prefix(3) { body += "<br><span class=\"plain\">\(HTML.escape(line))</span>" }
                body += "</li>"
            }
            body += "</ul>\n"
        }
        let base = "/cards?" + (query.isEmpty ? "" : "q=\(PercentEncoding.encode(query))&")
        body += "<nav class=\"pages\">"
        body += page > 0 ? "<a href=\"\(HTML.escape(base))page=\(page)\" rel=\"prev\">← Previous</a>" : "<span></span>"
        body += first + entries.count < total ? "<a href=\"\(HTML.escape(base))page=\(page + 2)\" rel=\"next\">Next →</a>" : "<span></span>"
        body += "</nav>\n"
        return Layout.page(title: "Cards", section: .cards, body: body)
    }
}
