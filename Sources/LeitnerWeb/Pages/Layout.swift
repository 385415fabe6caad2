import LeitnerClient
/// The frame of every page: the head (style and script from `/static/`, nothing from another
/// origin), the navigation when the browser is let in, and `main`.
enum Layout {
    /// A whole page. `section` marks the navigation's current place; nil for a page outside it
    /// (the door, an error without a session), which then has no navigation. `box` names the
    /// box served when it is not the default one: in the title (a tab, the history, a phone's
    /// list of open pages) and in the navigation, so that two boxes' pages are not mistaken.
    static func page(title: String, section: PageSection?, body: HTML, box: String? = nil) -> HTML {
        // The head is the statistics report's own (`HTMLText.pageStart`), which escapes the title.
        var page = HTML(unescaped: HTMLText.pageStart(title: "\(title) · \(box.map { $0 + " · " } ?? "")Leitner box", extraHead: """
            <meta name="color-scheme" content="light dark">
            <meta name="referrer" content="no-referrer">
            <link rel="stylesheet" href="/static/\(EmbeddedAssets.styleSheet.name)">
            <script src="/static/\(EmbeddedAssets.script.name)" defer></script>
            <link rel="manifest" href="/static/\(EmbeddedAssets.manifest.name)">
            <meta name="theme-color" content="\(AppIcon.theme)">
            <link rel="icon" href="/static/\(EmbeddedAssets.iconSVG.name)" type="image/svg+xml">
            <link rel="apple-touch-icon" href="/static/\(EmbeddedAssets.icon192.name)">
            <meta name="mobile-web-app-capable" content="yes">
            """))
        if let section { page += navigation(section, box: box) }
        page += "<main>\n" + body + "</main>\n</body>\n</html>\n"
        return page
    }

    /// The navigation bar, `section` marked current; the statistics report gets the same one.
    static func navigation(_ section: PageSection, box: String?) -> HTML {
        var out: HTML = "<header><nav>"
        for place in PageSection.navigation {
            let current: HTML = place == section ? " aria-current=\"page\"" : ""
            out += "<a href=\"\(place.path)\"\(current)>\(place.rawValue)</a>"
        }
        if let box { out += "<span class=\"box-name\" id=\"box-name\">\(box)</span>" }
        return out + "</nav></header>\n"
    }

    /// A POST form with its CSRF token: a button, and hidden `fields`.
    static func form(action: String, csrf: String, fields: [(String, String)] = [], button: String,
                     id: String? = nil, buttonClass: String? = nil) -> HTML {
        var form: HTML = "<form method=\"post\" action=\"\(action)\">"
        form += "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        for (name, value) in fields {
            form += "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
        }
        let idAttribute: HTML = id.map { " id=\"\($0)\"" } ?? ""
        let classAttribute: HTML = buttonClass.map { " class=\"\($0)\"" } ?? ""
        form += "<button type=\"submit\"\(idAttribute)\(classAttribute)>\(button)</button></form>"
        return form
    }
}
