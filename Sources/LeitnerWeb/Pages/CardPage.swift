import LeitnerCore

/// One card: both sides, its level and tags, a form to move it, and a form to edit each text side.
public enum CardPage {
    /// `sources`: the text each side is edited as (`editSources`).
    public static func html(_ card: Card, sources: [SideName: Asset], csrf: String, notice: String? = nil, box: String? = nil) -> HTML {
        let path = "/cards/\(PercentEncoding.encode(card.id))"
        var body: HTML = "<h1>\(card.id)</h1>\n"
        if let notice { body += "<p class=\"muted\" id=\"notice\">\(notice)</p>\n" }
        body += "<p>\(card.level.isPlace || card.level == .finished ? card.level.name.capitalizedFirst : "Level " + card.level.name)</p>\n"
        body += tagList(card.tags)
        body += "<article class=\"card\">"
        for name in SideName.allCases {
            body += SideView.html(card.side(name), name: name, source: "\(path)/asset/\(name.rawValue)", media: "\(path)/medium")
        }
        body += "</article>\n"
        body += "<form method=\"post\" action=\"\(path)/move\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        body += "<label for=\"level\">Move to level</label><div class=\"actions\"><select id=\"level\" name=\"level\">"
        for level in Level.allCases {
            body += "<option value=\"\(level.name)\"\(level == card.level ? " selected" : "" as HTML)>\(level.name)</option>"
        }
        body += "</select><button type=\"submit\" id=\"move\">Move</button></div></form>\n"
        if card.level == .suspended {
            // Back to the level it was suspended from (R24), as `leitnerctl unsuspend`.
            body += "<div class=\"actions\">" + Layout.form(action: "\(path)/unsuspend", csrf: csrf, button: "Unsuspend",
                                                             id: "unsuspend", buttonClass: "primary") + "</div>\n"
        }
        body += "<form method=\"post\" action=\"\(path)/tags\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        body += "<label for=\"tags-field\">Tags <span class=\"muted\">(separated by spaces)</span></label><div class=\"actions\">"
        body += "<input type=\"text\" id=\"tags-field\" name=\"tags\" value=\"\(card.tags.joined(separator: " "))\" autocapitalize=\"none\">"
        body += "<button type=\"submit\" id=\"save-tags\">Save tags</button></div></form>\n"
        let fields = textFields(card, sources)
        if !fields.isEmpty {
            body += "<form method=\"post\" action=\"\(path)/edit\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            body += fields + "<div class=\"actions\"><button type=\"submit\" id=\"save\">Save</button></div></form>\n"
        }
        return Layout.page(title: card.id, section: .cards, body: body, box: box)
    }

    /// The card's tags, each a link to the cards with it; nothing for a card without tags.
    static func tagList(_ tags: [String]) -> HTML {
        guard !tags.isEmpty else { return "" }
        var out: HTML = "<p class=\"tags\" id=\"tags\">Tags: "
        out += tags.map { "<a class=\"tag\" href=\"/cards?tag=\(PercentEncoding.encode($0))\">\($0)</a>" }
            .joined(separator: " ")
        return out + "</p>"
    }

    /// The file and text each side is edited as: a text side's own, and for a cloze card (R30)
    /// its note's text and extra, which `Edit` writes (the card's sides are made from them, and
    /// its front written back as a note's text would lose every gap). A side that is not text
    /// has none.
    public static func editSources(_ card: Card, readAsset: (SideName) throws -> Asset) rethrows -> [SideName: Asset] {
        var sources: [SideName: Asset] = [:]
        for name in SideName.allCases where MediaType.isText(card.side(name).mediaType) {
            if card.clozeOf != nil {
                sources[name] = try readAsset(name)
            } else if let text = card.side(name).text {
                let fileName = card.side(name).path.split(separator: "/").last.map(String.init) ?? "\(name.rawValue).txt"
                sources[name] = Asset(name: fileName, text: text)
            }
        }
        return sources
    }

    /// A labelled textarea for each side with a source (the form's fields `front`, `back`);
    /// empty when neither side is text (an image, a sound), which only `leitnerctl edit` changes.
    static func textFields(_ card: Card, _ sources: [SideName: Asset]) -> HTML {
        var out: HTML = ""
        for name in SideName.allCases {
            guard let source = sources[name] else { continue }
            let label: HTML = card.clozeOf == nil ? "The \(name.rawValue) (\(card.side(name).mediaType))"
                : name == .front ? "The note's text <span class=\"muted\">(each gap {{c1::word}}; every card of the note follows)</span>"
                : "The note's extra <span class=\"muted\">(shown under each answer)</span>"
            out += "<label for=\"\(name.rawValue)\">\(label)</label>"
            out += "<textarea id=\"\(name.rawValue)\" name=\"\(name.rawValue)\">\(String(decoding: source.content, as: UTF8.self))</textarea>"
        }
        return out
    }
}

extension String {
    /// The string with its first letter upper-case (ASCII), for a word that starts a sentence.
    var capitalizedFirst: String {
        guard let first = utf8.first, (97...122).contains(first) else { return self }
        return String(decoding: [first - 32], as: UTF8.self) + String(self.dropFirst())
    }
}
