import LeitnerClient
import LeitnerCore

/// Markup that is safe to send: the pages are built of it, and a plain string put into it is
/// escaped (`HTMLText.escape`, which the statistics report shares) unless it says otherwise. So
///
///     let page: HTML = "<p class=\"card-id\">\(card.id) · level \(card.level.name)</p>"
///
/// writes the id with its `<` and `&` as references, while the literal markup around it, which is
/// this program's own, goes out as it is. Markup made elsewhere enters only through the one door,
/// `HTML(unescaped:)`, for a renderer that escapes on its own (`MarkdownHTML`, the statistics
/// report, the page's head); `grep -rn 'unescaped:' Sources/LeitnerWeb` finds every use.
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup, as it is sent.
    public private(set) var description: String

    public init() {
        description = ""
    }

    /// Markup written in the program's source: trusted as it is.
    public init(stringLiteral markup: String) {
        description = markup
    }

    public init(stringInterpolation: Interpolation) {
        description = stringInterpolation.markup
    }

    /// The door for markup made elsewhere, sent as it is: only for what escapes its own text.
    public init(unescaped markup: String) {
        description = markup
    }

    /// `text` made safe inside an element or a quoted attribute.
    public init(escaping text: some StringProtocol) {
        description = HTMLText.escape(text)
    }

    /// A template's literal markup, and what is put into it: a string escaped, `HTML` as it is,
    /// a number as its digits.
    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        public mutating func appendInterpolation(_ html: HTML) {
            markup += html.description
        }

        public mutating func appendInterpolation(_ text: some StringProtocol) {
            markup += HTMLText.escape(text)
        }

        public mutating func appendInterpolation(_ number: Int) {
            markup += String(number)
        }

        /// A date as `2026-01-05`.
        public mutating func appendInterpolation(_ date: LogicalDate) {
            markup += HTMLText.escape(date.description)
        }
    }

    /// True when there is no markup at all.
    public var isEmpty: Bool { description.isEmpty }

    public static func + (left: HTML, right: HTML) -> HTML {
        var out = left
        out += right
        return out
    }

    public static func += (left: inout HTML, right: HTML) {
        left.description += right.description
    }
}

extension Sequence where Element == HTML {
    /// The pieces one after another, with `separator` between them.
    func joined(separator: HTML = "") -> HTML {
        var out = HTML()
        for (index, piece) in enumerated() {
            if index > 0 { out += separator }
            out += piece
        }
        return out
    }
}
