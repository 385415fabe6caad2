/// The review of what the browser kept (docs/rules.md, R35): a frame the script fills from the
/// browser's storage, so that it needs nothing from the box. The service worker keeps it and
/// serves it for a review page that cannot be reached; the keys and buttons are the review's
/// (`show`, `right`, `wrong`, `undo`), so the review's keys work on it as they do online. The
/// grades waiting (`kept`) are said at the top, where a phone's screen shows them above the card,
/// with the grades the box refused (`kept-refused`) under them.
enum OfflinePage {
    static func html(box: String?) -> HTML {
        let body: HTML = """
            <div id="offline-review">
            <p class="muted" id="kept-state" role="status">Reading what this phone kept…</p>
            <p class="muted"><span id="progress"></span></p>
            <p id="kept" role="status" hidden></p>
            <div id="kept-refused" role="alert" hidden></div>
            <p class="notice" id="kept-old" hidden></p>
            <article class="card" id="card" hidden><div id="kept-front"></div><div id="kept-back" hidden></div></article>
            <div class="actions">
            <button type="button" class="primary" id="show" hidden>Show answer</button>
            <button type="button" class="wrong" id="wrong" hidden>Wrong</button>
            <button type="button" class="right" id="right" hidden>Right</button>
            </div>
            <div class="secondary tools"><button type="button" id="undo" hidden>Undo</button><a class="button" id="online" href="/review" hidden>Go on with the review online</a></div>
            <noscript><p>Reviewing what this phone kept needs JavaScript.</p></noscript>
            </div>

            """
        return Layout.page(title: "Review offline", section: .review, body: body, box: box)
    }
}
