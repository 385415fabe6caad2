/// The one page a browser without the cookie gets, with 401: how to get in, and nothing of the
/// box, not even its name (a box's name may say what is learnt). `wrongToken` when the link's
/// token was not the right one (an old link).
public enum DoorPage {
    public static func html(wrongToken: Bool) -> HTML {
        let first: HTML = wrongToken
            ? "<p class=\"problem\">This link's token is not the box's token: it is an old link, or it was cut short.</p>\n"
            : ""
        return Layout.page(title: "Open the link", section: nil, body: first + """
            <h1>Leitner box</h1>
            <p>Open the link that <code>leitnerctl web</code> printed, in this browser. It holds the box's \
            secret token, and this browser is then let in until it is closed.</p>
            <p class="muted">On the computer that runs leitner-web: <code>leitnerctl web</code> prints the link; \
            for a leitner-web started by systemd, the token is in <code>~/.local/state/leitner/web-token</code> \
            (a box's other than the default: <code>NAME.web-token</code> beside it; see leitner-web(1)).</p>

            """)
    }
}
