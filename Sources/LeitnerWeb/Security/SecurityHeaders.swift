/// The headers every response carries (docs/web.md, "Security"): scripts and styles from this
/// server only, no inline script, never in a frame, no MIME sniffing, no referrer, so that a
/// card's text can do nothing in the page even if it slipped past the escaping.
public enum SecurityHeaders {
    /// The pages' policy: everything from this origin only; no inline script or style.
    public static let pagePolicy = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

    /// The statistics report's policy. The report is `leitnerctl stats --html`, one file with its
    /// style inline and SVG charts with `style` attributes: no script at all may run in it, and
    /// only its inline style applies.
    public static let reportPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// A card's file: shown by an `<img>` or `<audio>` of a page, and when opened alone (an SVG
    /// with a script in it), sandboxed with nothing allowed.
    public static let assetPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    /// The headers for a response under `policy`.
    public static func headers(policy: String = pagePolicy) -> [(name: String, value: String)] {
        [
            ("Content-Security-Policy", policy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
        ]
    }
}
