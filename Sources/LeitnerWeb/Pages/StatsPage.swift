import LeitnerClient
import LeitnerCore

/// Statistics: `leitnerctl stats --html` itself (`StatsReport`), with a way back. The report is
/// one file with its style inline, so it is served under `SecurityHeaders.reportPolicy`: its
/// style applies and no script can run in it.
public enum StatsPage {
    public static func html(_ stats: BoxStatistics) -> HTML {
        // The report escapes its own text (`HTMLText.escape`): it enters as it is.
        let report = StatsReport(stats).html()
        let back = "<p><a href=\"/\">← Today</a> · <a href=\"/review\">Review</a> · <a href=\"/cards\">Cards</a></p>\n"
        guard let main = report.range(of: "<main>\n") else { return HTML(unescaped: back + report) }
        return HTML(unescaped: report.replacingCharacters(in: main, with: "<main>\n" + back))
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
