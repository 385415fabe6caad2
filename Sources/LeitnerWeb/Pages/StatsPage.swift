import LeitnerClient
import LeitnerCore

/// Statistics: `leitnerctl stats --html` itself (`StatsReport`), with the navigation of every
/// other page. The report is one file with its style inline, so it is served under
/// `SecurityHeaders.reportPolicy`: its style applies and no script can run in it; the
/// navigation's look comes with it, inline too, in the report's light colours.
public enum StatsPage {
    static let navigationStyle = """
        <style>
        header nav { display: flex; gap: 4px; overflow-x: auto; padding: 8px; border-bottom: 1px solid #d0d7de;
          font: 17px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        header nav a { padding: 10px 12px; border-radius: 8px; color: #1b1f24; text-decoration: none; white-space: nowrap; }
        header nav a[aria-current] { background: #fff; border: 1px solid #d0d7de; font-weight: 600; }
        .box-name { margin-left: auto; align-self: center; padding: 4px 10px; border-radius: 8px;
          background: #0969da; color: #fff; font-size: .85em; white-space: nowrap; }
        </style>

        """

    public static func html(_ stats: BoxStatistics, box: String? = nil) -> HTML {
        // The report escapes its own text (`HTMLText.escape`): it enters as it is.
        let report = StatsReport(stats).html()
        let navigation = navigationStyle + Layout.navigation(.statistics, box: box).description
        guard let body = report.range(of: "<body>\n") else { return HTML(unescaped: navigation + report) }
        return HTML(unescaped: report.replacingCharacters(in: body, with: "<body>\n" + navigation))
    }
}

extension String {
    /// The first range of `needle` in the string.
    func range(of needle: String) -> Range<String.Index>? {
        guard !needle.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(needle) { return start..<index(start, offsetBy: needle.count) }
            start = index(after: start)
        }
        return nil
    }

    func replacingCharacters(in range: Range<String.Index>, with replacement: String) -> String {
        String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
