import LeitnerCore

/// One card: both sides, its level, a form to move it, and a form to edit each text side.
public enum CardPage {
    public static func html(_ card: Card, csrf: String, notice: String? = nil) -> String {
        let path = "/cards/\(PercentEncoding.encode(card.id))"
        var body = "<h1>\(HTML.escape(card.id))</h1>\n"
        if let notice { body += "<p class=\"muted\" id=\"notice\">\(HTML.escape(notice))</p>\n" }
        body += "<p>Level \(card.level.name)</p>\n<article class=\"card\">"
        for name in SideName.allCases {
            body += SideView.html(card.side(name), name: name, source: "\(path)/asset/\(name.rawValue)")
        }
        body += "</article>\n"
        body += "<form method=\"post\" action=\"\(path)/move\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
        body += "<label for=\"level\">Move to level</label><div class=\"actions\"><select id=\"level\" name=\"level\">"
        for level in Level.allCases {
            body += "<option value=\"\(level.name)\"\(level == card.level ? " selected" : "")>\(level.name)</option>"
        }
        body += "</select><button type=\"submit\" id=\"move\">Move</button></div></form>\n"
        let textSides = SideName.allCases.filter { MediaType.isText(card.side($0).mediaType) && card.side($0).text != nil }
        if !textSides.isEmpty {
            body += "<form method=\"post\" action=\"\(path)/edit\"><input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
            for name in textSides {
                body += "<label for=\"\(name.rawValue)\">The \(name.rawValue) (\(HTML.escape(card.side(name).mediaType)))</label>"
                body += "<textarea id=\"\(name.rawValue)\" name=\"\(name.rawValue)\">\(HTML.escape(card.side(name).text ?? ""))</textarea>"
            }
            body += "<div class=\"actions\"><button type=\"submit\" id=\"save\">Save</button></div></form>\n"
        }
        return Layout.page(title: card.id, section: .cards, body: body)
    }
}
