import LeitnerCore

/// One side of a card in a page: text as it is, Markdown rendered safely, an image or a sound
/// through an asset route (`source`, never the card's path in the store), any other file as a
/// link to download it.
enum SideView {
    static func html(_ side: Side, name: SideName, source: String) -> HTML {
        var out: HTML = "<div class=\"side \(name.rawValue)\">"
        let type = side.mediaType
        if type == "text/markdown", let text = side.text {
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
}
