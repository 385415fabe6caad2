/// The one page a browser without a device's cookie gets: how to get in, and nothing of the box,
/// not even its name (a box's name may say what is learnt).
public enum DoorPage {
    /// Why the browser is at the door.
    public enum Reason: Sendable {
        /// No cookie: a browser never paired (or one whose cookie expired).
        case none
        /// A cookie of a device that was revoked (or of another box's book).
        case forgotten
        /// A pairing link already used, past its time, or cut short.
        case usedLink
        /// The old link with the token in its address, which no longer opens anything.
        case oldLink
    }

    public static func html(_ reason: Reason) -> HTML {
        let first: HTML = switch reason {
        case .none: ""
        case .forgotten: "<p class=\"problem\">This browser was a device of the box, and was revoked (or its pairing was lost).</p>\n"
        case .usedLink: "<p class=\"problem\">This pairing link was used already, or its 10 minutes are over. A link opens once.</p>\n"
        case .oldLink: "<p class=\"problem\">Links with the box's token no longer open it: the secret is never put in an address now.</p>\n"
        }
        return Layout.page(title: "Pair this browser", section: nil, body: first + """
            <h1>Leitner box</h1>
            <p>On the computer that runs the box, run <code>leitnerctl web</code>: it prints a pairing link and \
            its QR code. Open the link in this browser (or scan the code) within 10 minutes: this browser then \
            stays let in until it is revoked.</p>
            <p class="muted">For a leitner-web that systemd started: <code>leitnerctl web --pair</code> prints \
            a new link for it (see leitner-web(1)).</p>

            """)
    }
}
