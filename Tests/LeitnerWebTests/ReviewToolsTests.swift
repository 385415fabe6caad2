import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink
import LeitnerWeb
import Testing

/// What came with the learning features: the Today page's places, Suspend and Edit in the
/// review, the tag filter of the cards and of the review, and the box's name in the titles,
/// through `WebApp.respond` with a daemon in memory (`FakeDaemon`).
@Suite struct ReviewToolsTests {
    static func card(_ id: String, tags: [String] = []) -> Card {
        Card(id: id, level: .one, front: Side(path: "1/\(id)/front.txt", mediaType: "text/plain", text: "question \(id)"),
             back: Side(path: "1/\(id)/back.md", mediaType: "text/markdown", text: "answer \(id)"), tags: tags)
    }

    let cards = [card("inu", tags: ["ja"]), card("hund", tags: ["de"]), card("neko", tags: ["ja", "animals"])]

    func request(_ app: WebApp, _ method: HTTPMethod, _ target: String, body: String = "", cookie: String?) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        var headers = [HTTPRequest.Header(name: "host", value: "127.0.0.1:8470")]
        if method == .post { headers.append(HTTPRequest.Header(name: "content-type", value: "application/x-www-form-urlencoded")) }
        if let cookie { headers.append(HTTPRequest.Header(name: "cookie", value: cookie)) }
        return app.respond(to: HTTPRequest(method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
                                           headers: headers, body: Array(body.utf8)))
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func login(_ app: WebApp) -> String { TestSite.login(app) }

    /// What follows the first `marker` in `page`, as long as `keep` takes its characters.
    func after(_ marker: String, in page: String, while keep: (Character) -> Bool) -> String? {
        var rest = Substring(page)
        while !rest.isEmpty {
            if rest.hasPrefix(marker) { return String(rest.dropFirst(marker.count).prefix(while: keep)) }
            rest = rest.dropFirst()
        }
        return nil
    }

    /// A value of the page's hidden field `name`.
    func field(_ page: String, _ name: String) -> String? {
        after("name=\"\(name)\" value=\"", in: page) { $0 != "\"" }
    }

    /// The handle in the front's Show answer link.
    func handleIn(_ page: String) -> String? {
        after("/review/answer?card=", in: page) { $0.isHexDigit }
    }

    /// A browser let in and shown the first card's front: the daemon, the site, the cookie, the
    /// front's handle and the session's CSRF token.
    func reviewStarted() throws -> (FakeDaemon, WebApp, String, String, String) {
        let daemon = FakeDaemon(cards: cards)
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let front = text(request(app, .get, "/review", cookie: cookie))
        return (daemon, app, cookie, try #require(handleIn(front)), try #require(field(front, "csrf")))
    }

    /// The statistics page is drawn again only when the daemon's figures change: each view
    /// asks the daemon, and a changed figure (a card moved, a grade) shows at once.
    @Test func theStatisticsShowTheDaemonsFiguresAtEachView() {
        let today = LogicalDate(year: 2026, month: 1, day: 5)!
        let daemon = FakeDaemon(cards: [])
        func figures(cards: Int) -> BoxStatistics {
            BoxStatistics(today: today, window: 30, leechWindow: 90, counts: [.one: cards, .finished: 2], damaged: 0, loose: 0,
                          forecast: [], heatmap: [], retention: [], retentionWeeks: [], work: [], weekReviews: 0,
                          weekAnswerMs: 0, streaks: Streaks(current: 0, longest: 0, longestEnd: nil), leeches: [])
        }
        daemon.state.withLock { $0.stats = figures(cards: 1234) }
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let first = text(request(app, .get, "/stats", cookie: cookie))
        #expect(first.contains("1236 cards in the box") && first.contains("aria-current"))
        #expect(text(request(app, .get, "/stats", cookie: cookie)) == first)
        daemon.state.withLock { $0.stats = figures(cards: 4321) }
        let changed = text(request(app, .get, "/stats", cookie: cookie))
        #expect(changed.contains("4323 cards in the box") && !changed.contains("1236"))
        #expect(daemon.methods.filter { $0 == .stats }.count == 3)
    }

    /// Today with its week is one round trip: the week comes in the `Status` reply, no
    /// `Calendar` call after it (#35).
    @Test func todayAsksTheDaemonOnce() {
        let monday = LogicalDate(year: 2026, month: 1, day: 5)!
        let test = TestSummary(date: monday, position: 0, levels: [.one], state: .open, remaining: 1, passed: 0, failed: 0)
        let week = (0..<7).map { CalendarDay(date: monday.adding(days: $0), state: $0 == 0 ? .today : .upcoming, levels: [.one], cards: 1) }
        let daemon = FakeDaemon(cards: [], status: BoxStatus(today: monday, test: test, counts: [.one: 1], problems: 0, week: week))
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let before = daemon.methods.count
        let page = text(request(app, .get, "/", cookie: cookie))
        #expect(Array(daemon.methods.dropFirst(before)) == [.status])
        #expect(page.contains("<strong>Mon 5</strong>") && page.contains("<strong>Sun 11</strong>"))
    }

    @Test func todaySaysWhatWaitsInNewWhatIsSuspendedAndTheLeeches() {
        let today = LogicalDate(year: 2026, month: 1, day: 5)!
        let test = TestSummary(date: today, position: 3, levels: [.one], state: .completed, remaining: 0, passed: 4, failed: 0)
        let status = BoxStatus(today: today, test: test, counts: [.one: 20, .new: 188, .suspended: 3], problems: 0,
                               arrivals: (today.next, 20), leeches: 2)
        let page = TodayPage.html(status: status, week: [], csrf: "c").description
        #expect(page.contains("<p id=\"waiting\">188 new cards wait; 20 arrive tomorrow.</p>"))
        #expect(page.contains("<p id=\"suspended\">3 cards are suspended: <a href=\"/cards?level=suspended\">"))
        #expect(page.contains("<p id=\"leeches\">2 leeches"))
        let opening = BoxStatus(today: today, test: test, counts: [.new: 1], problems: 0, arrivals: (today, 1), leeches: 0)
        let one = TodayPage.html(status: opening, week: [], csrf: "c").description
        #expect(one.contains("1 new card waits; 1 arrives today, when the test opens."))
        #expect(!one.contains("id=\"suspended\"") && !one.contains("id=\"leeches\""))
        // An empty test that new cards enter when it opens is offered, not said to be empty.
        let empty = TestSummary(date: today, position: 3, levels: [.one], state: .empty, remaining: 0, passed: 0, failed: 0)
        let arriving = TodayPage.html(status: BoxStatus(today: today, test: empty, counts: [.new: 30], problems: 0, arrivals: (today, 20)),
                                      week: [], csrf: "c").description
        #expect(arriving.contains("opens with <strong>20 new cards</strong>") && arriving.contains("id=\"start\"")
                && !arriving.contains("Nothing is due"))
        let none = TodayPage.html(status: BoxStatus(today: today, test: test, counts: [:], problems: 0), week: [], csrf: "c").description
        #expect(!none.contains("id=\"waiting\""))
    }

    @Test func editIsOnTheAnswerOnlyAndSuspendOnBoth() {
        let test = TestSummary(date: LogicalDate(year: 2026, month: 1, day: 5)!, position: 0, levels: [.one], state: .open,
                               remaining: 2, passed: 0, failed: 0)
        let front = ReviewPage.front(cards[0], handle: "h1", test: test, scope: ReviewPage.Scope(tag: "ja"), csrf: "c").description
        #expect(!front.contains("answer inu") && !front.contains("card-id") && !front.contains("id=\"edit\""))
        #expect(front.contains("action=\"/review/suspend\"") && front.contains("id=\"suspend\""))
        #expect(front.contains("href=\"/review/answer?card=h1&amp;tag=ja\"") && front.contains("name=\"tag\" value=\"ja\""))
        let answer = ReviewPage.answer(cards[0], handle: "h1", test: test, scope: ReviewPage.Scope(tag: "ja"), csrf: "c").description
        #expect(answer.contains("id=\"edit\" href=\"/review/edit?card=h1&amp;tag=ja\"") && answer.contains("id=\"suspend\""))
        #expect(answer.contains("<a class=\"tag\" href=\"/cards?tag=ja\">ja</a>"))
    }

    @Test func suspendTakesTheCardOutAndShowsTheNext() throws {
        let (daemon, app, cookie, handle, csrf) = try reviewStarted()
        // Without the CSRF token: 403, and nothing reaches the daemon.
        let before = daemon.methods.count
        #expect(request(app, .post, "/review/suspend", body: "card=\(handle)", cookie: cookie).status == 403)
        #expect(request(app, .post, "/review/suspend", body: "card=\(handle)&csrf=" + String(repeating: "0", count: 64), cookie: cookie).status == 403)
        #expect(daemon.methods.count == before)
        let suspended = request(app, .post, "/review/suspend", body: "card=\(handle)&csrf=\(csrf)", cookie: cookie)
        #expect(suspended.status == 303 && suspended.header("Location") == "/review?done=suspended&card=\(handle)")
        #expect(daemon.parameters(of: .suspend)?["ids"] == .array([.string("inu")]))
        #expect(daemon.card("inu")?.level == .suspended)
        let next = text(request(app, .get, "/review?done=suspended&card=\(handle)", cookie: cookie))
        #expect(next.contains("question hund"))
        // The page right after offers to take back that suspend, and no undo of an older grade (#36).
        #expect(next.contains("Suspended") && next.contains("action=\"/review/unsuspend\"") && !next.contains("action=\"/review/undo\""))
        let unsuspended = request(app, .post, "/review/unsuspend", body: "card=\(handle)&csrf=\(csrf)", cookie: cookie)
        #expect(unsuspended.header("Location") == "/review?done=unsuspended")
        #expect(daemon.card("inu")?.level == .one)
        #expect(text(request(app, .get, "/review?done=unsuspended", cookie: cookie)).contains("Suspend taken back."))
        _ = request(app, .post, "/review/suspend", body: "card=\(handle)&csrf=\(csrf)", cookie: cookie)
        // The handle of a card already suspended does nothing more.
        #expect(request(app, .post, "/review/suspend", body: "card=nothandle&csrf=\(csrf)", cookie: cookie).header("Location") == "/review")
        #expect(daemon.methods.filter { $0 == .suspend }.count == 2)
    }

    @Test func editIsRefusedBeforeTheAnswerThenSavesAndGoesBackToIt() throws {
        let (daemon, app, cookie, handle, csrf) = try reviewStarted()
        // Before the answer: the edit page (which shows the id) sends to the answer first, and a
        // POST changes nothing.
        let early = request(app, .get, "/review/edit?card=\(handle)", cookie: cookie)
        #expect(early.status == 303 && early.header("Location") == "/review/answer?card=\(handle)")
        #expect(request(app, .post, "/review/edit", body: "card=\(handle)&csrf=\(csrf)&back=x", cookie: cookie).header("Location") == "/review")
        #expect(!daemon.methods.contains(.edit))
        let answer = text(request(app, .get, "/review/answer?card=\(handle)", cookie: cookie))
        #expect(answer.contains("answer inu") && answer.contains("id=\"edit\""))
        let edit = text(request(app, .get, "/review/edit?card=\(handle)", cookie: cookie))
        #expect(edit.contains("<h1>Edit inu</h1>") && edit.contains("<textarea id=\"back\" name=\"back\">answer inu</textarea>"))
        #expect(edit.contains("action=\"/review/edit\"") && edit.contains("name=\"card\" value=\"\(handle)\""))
        // Without the CSRF token: nothing.
        #expect(request(app, .post, "/review/edit", body: "card=\(handle)&back=changed", cookie: cookie).status == 403)
        #expect(!daemon.methods.contains(.edit))
        let saved = request(app, .post, "/review/edit", body: "card=\(handle)&csrf=\(csrf)&front=question+inu&back=the+dog%0D%0A", cookie: cookie)
        #expect(saved.status == 303 && saved.header("Location") == "/review/answer?card=\(handle)&done=edited")
        #expect(daemon.card("inu")?.back.text == "the dog\n" && daemon.card("inu")?.front.text == "question inu")
        // Only the side that changed was sent, under its own file name.
        #expect(daemon.parameters(of: .edit)?["front"] == nil)
        let after = text(request(app, .get, "/review/answer?card=\(handle)&done=edited", cookie: cookie))
        #expect(after.contains("id=\"notice\">Saved.") && after.contains("the dog"))
    }

    @Test func aTagReviewPassesTheFilterToNextAndKeepsIt() throws {
        let daemon = FakeDaemon(cards: cards)
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let front = text(request(app, .get, "/review?tag=de", cookie: cookie))
        #expect(front.contains("question hund") && front.contains("Review · tag de"))
        // Its own cards, not the whole test's three (#35).
        #expect(front.contains("id=\"progress\">1 card tagged de to go</span>") && !front.contains(" of 3 done"))
        #expect(daemon.parameters(of: .next)?["tags"] == .array([.string("de")]))
        let handle = try #require(handleIn(front))
        let csrf = try #require(field(front, "csrf"))
        let graded = request(app, .post, "/review/grade", body: "card=\(handle)&correct=yes&tag=de&csrf=\(csrf)", cookie: cookie)
        #expect(graded.header("Location") == "/review?tag=de&done=right-2")
        let done = text(request(app, .get, "/review?tag=de", cookie: cookie))
        #expect(done.contains("No card tagged de is left in today's test; 2 other cards are to review."))
        #expect(done.contains("href=\"/review\""))
    }

    @Test func theCardsPageFiltersByTagAndLevel() {
        let daemon = FakeDaemon(cards: cards)
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let page = text(request(app, .get, "/cards?tag=ja", cookie: cookie))
        #expect(daemon.parameters(of: .list)?["tags"] == .array([.string("ja")]))
        #expect(page.contains("href=\"/cards/inu\"") && page.contains("href=\"/cards/neko\"") && !page.contains("href=\"/cards/hund\""))
        // Each row shows the card's front, then its id and level (#36).
        #expect(daemon.parameters(of: .list)?["withText"] == .bool(true))
        #expect(page.contains("<span class=\"muted\">inu · level 1</span>"))
        #expect(page.contains("<option value=\"ja\" selected>ja (2)</option>") && page.contains("<option value=\"de\">de (1)</option>"))
        #expect(page.contains("id=\"review-tag\" href=\"/review?tag=ja\""))
        _ = request(app, .get, "/cards?level=suspended", cookie: cookie)
        #expect(daemon.parameters(of: .list)?["level"] == .string("suspended"))
        // The next page's link keeps the filter.
        #expect(CardsPage.Filter(text: "a b", tag: "ja", level: .new).queryPrefix == "q=a%20b&tag=ja&level=new&")
    }

    /// A search's line of a Markdown side is shown as the listing shows a front, without its
    /// marks; a text side's `**` is its text and stays; both are escaped.
    @Test func theCardsSearchShowsAMarkdownLineWithoutItsMarks() {
        let daemon = FakeDaemon(cards: [
            Card(id: "hablar", level: .one, front: Side(path: "1/hablar/front.md", mediaType: "text/markdown", text: "Yo **[hablo]** <español>"),
                 back: Side(path: "1/hablar/back.txt", mediaType: "text/plain", text: "I **speak** <español>"))])
        let app = TestSite.app(daemon)
        let page = text(request(app, .get, "/cards?q=espa%C3%B1ol", cookie: login(app)))
        #expect(page.contains("<span class=\"plain\">Yo [hablo] &lt;español&gt;</span>"))
        #expect(page.contains("<span class=\"plain\">I **speak** &lt;español&gt;</span>"))
    }

    /// A search's page is shown once its cards are found: the daemon is asked for the lines of
    /// the page's cards and one more (`cards`), not every card of the box, whose count waited at
    /// 100,000 cards for the whole search index (docs/web.md "Cards"), and the reply is read to
    /// its end: a stream left in the middle kept the daemon reading a batch of cards past the
    /// page under the box's turn, which the next call waited for. The page says there are more
    /// and links the next, and the last page counts them.
    @Test func theCardsSearchAsksForItsPageAndOneCardMore() {
        let many = (0..<250).map { number in
            let digits = String(number)
            return Self.card("w" + String(repeating: "0", count: 3 - digits.count) + digits)
        }
        let daemon = FakeDaemon(cards: many)
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let first = text(request(app, .get, "/cards?q=question", cookie: cookie))
        #expect(first.contains("id=\"shown\">1–100 of more than 100 cards matching<"))
        #expect(first.contains("href=\"/cards/w099\"") && !first.contains("href=\"/cards/w100\""))
        #expect(first.contains("page=2\" rel=\"next\"") && !first.contains("rel=\"prev\""))
        #expect(daemon.state.withLock { $0.searchParts } == (101, 101))
        #expect(daemon.state.withLock { $0.calls.last?.parameters["cards"] } == .int(101))
        let last = text(request(app, .get, "/cards?q=question&page=3", cookie: cookie))
        #expect(last.contains("id=\"shown\">201–250 of 250 cards matching<"))
        #expect(last.contains("href=\"/cards/w249\"") && !last.contains("rel=\"next\"") && last.contains("page=2\" rel=\"prev\""))
        #expect(daemon.state.withLock { $0.searchParts } == (250, 250))
        #expect(daemon.state.withLock { $0.calls.last?.parameters["cards"] } == .int(301))
    }

    /// A page past the search's last match (an old link, a number typed) says so and links the
    /// page the matches end on, rather than "No card matches." (docs/web.md "Cards").
    @Test func aSearchPagePastTheLastMatchLinksTheLastPage() {
        let daemon = FakeDaemon(cards: (0..<130).map { Self.card("w" + String(1000 + $0)) })
        let app = TestSite.app(daemon)
        let cookie = login(app)
        let past = text(request(app, .get, "/cards?q=question&page=5", cookie: cookie))
        #expect(!past.contains("No card matches."))
        #expect(past.contains("id=\"shown\">Page 5 is past the last match: the 130 cards matching end on page 2.<"))
        #expect(past.contains("id=\"last-page\" href=\"/cards?q=question&amp;page=2\""))
        #expect(past.contains("page=2\" rel=\"prev\"") && !past.contains("rel=\"next\""))
        let oneApp = TestSite.app(FakeDaemon(cards: [Self.card("w1")]))
        let onePast = text(request(oneApp, .get, "/cards?q=question&page=2", cookie: login(oneApp)))
        #expect(onePast.contains(">Page 2 is past the last match: the one card matching is on page 1.<"))
        #expect(onePast.contains("href=\"/cards?q=question&amp;page=1\""))
        // A search nothing matches still says so, on any page.
        let none = text(request(app, .get, "/cards?q=nothing-holds-this&page=3", cookie: cookie))
        #expect(none.contains("No card matches.") && !none.contains("last-page"))
    }

    /// A daemon older than `Search`'s `cards` refuses it (`InvalidParameter`): the page asks
    /// again without it and reads every match, where it showed the daemon's refusal. It is the
    /// page a newer daemon gives, its words too.
    @Test func theCardsSearchOfAnOlderDaemonAsksForEveryMatch() {
        let many = (0..<250).map { number in
            let digits = String(number)
            return Self.card("w" + String(repeating: "0", count: 3 - digits.count) + digits)
        }
        let daemon = FakeDaemon(cards: many)
        daemon.state.withLock { $0.searchTakesCards = false }
        let app = TestSite.app(daemon)
        let page = text(request(app, .get, "/cards?q=question&page=2", cookie: login(app)))
        #expect(page.contains("id=\"shown\">101–200 of more than 200 cards matching<"))
        #expect(page.contains("href=\"/cards/w100\"") && page.contains("href=\"/cards/w199\"") && !page.contains("href=\"/cards/w200\""))
        #expect(page.contains("page=3\" rel=\"next\"") && page.contains("page=1\" rel=\"prev\""))
        let searches = daemon.state.withLock { $0.calls.filter { $0.method == .search }.map(\.parameters) }
        #expect(searches.count == 2 && searches[0]["cards"] == .int(201) && searches[1]["cards"] == nil)
        #expect(searches[1]["pattern"] == .string("question"))
    }

    @Test func theCardsPageAsksForOnePageAndLinksByPosition() {
        let daemon = FakeDaemon(cards: cards)
        let app = TestSite.app(daemon)
        let cookie = login(app)
        // The first page: one card more than a page, to know whether a page follows.
        let first = text(request(app, .get, "/cards?level=1", cookie: cookie))
        #expect(daemon.parameters(of: .list)?["limit"] == .int(Int64(CardsPage.pageSize + 1)))
        #expect(daemon.parameters(of: .list)?["after"] == nil && daemon.parameters(of: .list)?["before"] == nil)
        #expect(!first.contains("rel=\"prev\"") && !first.contains("rel=\"next\""))
        // A page after a position, and one before: the position as the daemon's ListPosition.
        let later = text(request(app, .get, "/cards?level=1&after=1%2Finu", cookie: cookie))
        #expect(daemon.parameters(of: .list)?["after"] == .object(["level": .string("1"), "id": .string("inu")]))
        // Came by a Next link: a Previous one names the page's first card.
        #expect(later.contains("rel=\"prev\"") && later.contains("before=1%2F"))
        _ = request(app, .get, "/cards?before=finished%2Fneko", cookie: cookie)
        #expect(daemon.parameters(of: .list)?["before"] == .object(["level": .string("finished"), "id": .string("neko")]))
        // A position that names none is no position.
        _ = request(app, .get, "/cards?after=9%2Fx&before=1%2Fa%20b", cookie: cookie)
        #expect(daemon.parameters(of: .list)?["after"] == nil && daemon.parameters(of: .list)?["before"] == nil)
        #expect(CardsPage.position(from: "3/hola") == ListPosition(level: .three, id: "hola"))
        #expect(CardsPage.position(from: "hola") == nil && CardsPage.position(from: "3/") == nil)
    }

    @Test func anotherBoxIsNamedInTheTitlesButNotAtTheDoor() {
        let daemon = FakeDaemon(cards: cards)
        let app = TestSite.app(daemon, boxName: "kanji")
        let door = text(request(app, .get, "/", cookie: nil))
        #expect(!door.contains("kanji"))
        let cookie = login(app)
        let page = text(request(app, .get, "/review", cookie: cookie))
        #expect(page.contains("<title>Review · kanji · Leitner box</title>") && page.contains("id=\"box-name\">kanji<"))
        let plain = TestSite.app(daemon)
        #expect(text(request(plain, .get, "/review", cookie: login(plain))).contains("<title>Review · Leitner box</title>"))
    }
}
