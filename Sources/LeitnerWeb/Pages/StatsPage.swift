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
        // Found among the bytes, not a character at a time.
        guard let body = report.utf8.firstRange(of: "<body>\n".utf8) else { return HTML(unescaped: navigation + report) }
        return HTML(unescaped: String(report[..<body.upperBound]) + navigation + String(report[body.upperBound...]))
    }
}
