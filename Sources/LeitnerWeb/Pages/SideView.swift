import LeitnerCore

/// One side of a card in a page: text as it is, Markdown rendered safely, an image or a sound
/// through an asset route (`source`, never the card's path in the store), any other file as a
/// link to download it. A Markdown side's own pictures and sounds (R31) are shown where it names
/// them, through `media` (`/review/medium/HANDLE`, `/cards/ID/medium`) and their names, never a
/// path; a reference the daemon did not list is shown as it is written.
enum SideView {
    static func html(_ side: Side, name: SideName, source: String, media: String) -> HTML {
        var out: HTML = "<div class=\"side \(name.rawValue)\">"
        let type = side.mediaType
        if type == "text/markdown", let text = side.text, SideMedia(parsing: text).hasReferences {
            out += withMedia(side, text: text, media: media)
        } else if type == "text/markdown", let text = side.text {
            out += MarkdownHTML.render(text)
        } else if MediaType.isText(type), let text = side.text {
            out += "<p class=\"plain\">\(text)</p>"
        } else if type.hasPrefix("image/") {
            out += "<img src=\"\(source)\" alt=\"the \(name.rawValue) of the card\">"
        } else if type.hasPrefix("audio/") {
            out += "<audio controls preload=\"auto\" src=\"\(source)\"></audio>"
        } else {
            out += "<p><a href=\"\(source)\">the \(name.rawValue)'s file (\(type))</a></p>"
        }
        return out + "</div>"
    }

    /// A Markdown side cut at its media references: each run of text rendered as Markdown, each
    /// listed picture an `<img>` scaled to the card, each listed sound an `<audio controls>`.
    private static func withMedia(_ side: Side, text: String, media: String) -> HTML {
        var out: HTML = ""
        var pending = ""
        func flush() {
            if !pending.allSatisfy(\.isWhitespace) { out += MarkdownHTML.render(pending) }
            pending = ""
        }
        for piece in SideMedia(parsing: text).pieces {
            flush()
            switch piece {
            case .text(let run):
                pending = run
                continue
            case .image(let alt, let name, _) where side.medium(named: name) != nil:
                out += "<img class=\"medium\" src=\"\(media)/\(PercentEncoding.encode(name))\" alt=\"\(HTML(escaping: alt))\">"
            case .sound(let name, _) where side.medium(named: name) != nil:
                out += "<audio class=\"medium\" controls preload=\"none\" src=\"\(media)/\(PercentEncoding.encode(name))\" title=\"\(HTML(escaping: name))\"></audio>"
            default:
                out += "<p class=\"plain unshown\">\(HTML(escaping: piece.written))</p>"
            }
        }
        flush()
        return out
    }
}
