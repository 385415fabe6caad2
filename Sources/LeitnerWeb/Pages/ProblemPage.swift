/// A page that says what went wrong in words: the daemon down, the test complete, a damaged card,
/// a form that is out of date. Never a stack trace, never a blank page.
public enum ProblemPage {
    public static func html(title: String, message: String, section: PageSection?, links: [(String, String)] = [("/", "Today")],
                            box: String? = nil) -> HTML {
        var body: HTML = "<h1>\(title)</h1>\n<p class=\"problem\">\(message)</p>\n<p>"
        body += links.map { "<a class=\"button\" href=\"\($0.0)\">\($0.1)</a>" as HTML }.joined(separator: " ")
        body += "</p>\n"
        return Layout.page(title: title, section: section, body: body, box: box)
    }
}
