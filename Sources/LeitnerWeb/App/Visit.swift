import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// One request of a browser that is let in: the handlers of the routes behind the door
/// (`WebRoute.table` says which address goes to which). A GET only reads; every change is a POST
/// whose form carries the session's CSRF token, checked before its route is looked for.
struct Visit {
    let app: WebApp
    let request: HTTPRequest
    let segments: [String]
    let query: [String: String]
    /// The device whose cookie came with the request.
    let device: Device
    let session: Session
    let now: MonotonicTime
    /// A POST's form, read and checked by `answer()`; empty for a GET.
    private(set) var form: [String: String] = [:]
    /// The files of a `multipart/form-data` POST (the add page's photo and drawing).
    private(set) var files: [String: MultipartForm.File] = [:]

    var box: BoxClient { app.box }
    var csrf: String { session.csrf }
    /// The in-memory session is the device's, under its secret.
    var sessionID: String { device.secret }
    /// The box's name for the pages' titles; nil for the default box.
    var boxName: String? { app.boxName }

    /// The response of the request's route, with its security policy.
    func answer() -> (HTTPResponse, String) {
        var visit = self
        if request.method == .post, let refusal = readForm(into: &visit.form, files: &visit.files) {
            return page(refusal)
        }
        guard let (route, values) = WebRoute.find(request.method, segments), case .visit(let handler) = route.handler else {
            if request.method == .post {
                return page(app.problem(405, "Not a change", "Nothing is changed at this address.", section: .today))
            }
            return page(app.notFound(section: segments.first == "review" ? .review : segments.first == "cards" ? .cards : .today))
        }
        return handler(visit, values)
    }

    /// A page's response, under the pages' policy.
    func page(_ response: HTTPResponse) -> (HTTPResponse, String) {
        (response, SecurityHeaders.pagePolicy)
    }

    // MARK: Reading

    func today() -> (HTTPResponse, String) {
        page(todayPage())
    }

    private func todayPage() -> HTTPResponse {
        do {
            let status = try box.status().value
            return HTTPResponse.html(200, TodayPage.html(status: status, week: try box.week(of: status), csrf: csrf, box: boxName))
        } catch {
            return app.problem(error, section: .today)
        }
    }

    /// The part of the test a review link or form names: `tag=` (empty: none).
    static func scope(_ fields: [String: String]) -> ReviewPage.Scope {
        ReviewPage.Scope(tag: fields["tag"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The head of the test's queue within `scope`: `Next`, with the tag as its filter when
    /// there is one (`outside`: the queued cards the filter leaves out).
    func head(_ scope: ReviewPage.Scope) throws -> (card: Card?, test: TestSummary, outside: Int) {
        guard let tag = scope.tag else {
            let (card, test) = try box.next().value
            return (card, test, 0)
        }
        return try box.next(tags: [tag], notTags: nil, levels: nil).value
    }

    /// `/review`: the front of the card due now, or the end of the test.
    func reviewFront() -> (HTTPResponse, String) {
        let scope = Self.scope(query)
        return page({
            do {
                // `Next` opens today's test when it is not open yet, as `leitnerctl next` does: the
                // test is the day's whoever opens it, so this GET decides nothing a person could.
                let (card, test, outside) = try head(scope)
                let notice = ReviewPage.Notice(query)
                guard let card else {
                    let next = try? box.status().value
                    return HTTPResponse.html(200, ReviewPage.finished(test, scope: scope, outside: outside, csrf: csrf, notice: notice,
                                                                      next: next, box: boxName))
                }
                let handle = app.sessions.update(sessionID) { session in
                    session.handle(for: card.id, now: now) { (try? RandomBytes.hex(12)) ?? String(now.nanoseconds, radix: 36) }
                } ?? ""
                return HTTPResponse.html(200, ReviewPage.front(card, handle: handle, test: test, scope: scope, outside: outside,
                                                               csrf: csrf, notice: notice, box: boxName, extras: reviewExtras(card, answered: false)))
            } catch {
                return app.problem(error, section: .review)
            }
        }())
    }

    /// `/review/answer?card=HANDLE`: both sides of the card shown, with the grading buttons.
    func reviewAnswer() -> (HTTPResponse, String) {
        let scope = Self.scope(query)
        return page({
            guard let handle = query["card"], let shown = session.card(forHandle: handle) else {
                return HTTPResponse.redirect(scope.path)
            }
            do {
                let (card, test, outside) = try head(scope)
                // The card was graded meanwhile (another tab, the terminal): show the one due now.
                guard let card, card.id == shown.id else { return HTTPResponse.redirect(scope.path) }
                // From now on the id is no secret to this browser: the edit page may show it.
                app.sessions.update(sessionID) { $0.markAnswered(handle) }
                return HTTPResponse.html(200, ReviewPage.answer(card, handle: handle, test: test, scope: scope, outside: outside,
                                                                csrf: csrf,
                                                                notice: query["done"].flatMap(Self.notice), box: boxName, extras: reviewExtras(card, answered: true)))
            } catch {
                return app.problem(error, section: .review)
            }
        }())
    }

    /// `/review/edit?card=HANDLE`: the shown card's text in a form.
    func reviewEditPage() -> (HTTPResponse, String) {
        let scope = Self.scope(query)
        return page({
            guard let handle = query["card"], let shown = session.card(forHandle: handle) else {
                return HTTPResponse.redirect(scope.path)
            }
            // The edit page shows the id: not before the answer was shown (an address typed or
            // kept from the front's page goes to the answer first).
            guard shown.answered else {
                return HTTPResponse.redirect("/review/answer?card=\(handle)" + scope.queryTail)
            }
            do {
                let card = try box.show(id: shown.id).value
                return HTTPResponse.html(200, ReviewPage.edit(card, sources: try editSources(card), handle: handle, scope: scope,
                                                              csrf: csrf, box: boxName))
            } catch {
                return app.problem(error, section: .review)
            }
        }())
    }

    /// `/review/asset/HANDLE/SIDE`: a side's file of a card the review showed, by its handle.
    func reviewAsset(handle: String, side: String) -> (HTTPResponse, String) {
        guard let shown = session.card(forHandle: handle), let side = SideName(rawValue: side) else {
            return page(app.notFound(section: .review))
        }
        return (asset(id: shown.id, side: side), SecurityHeaders.assetPolicy)
    }

    /// `/cards/ID`: a card's page.
    func cardPage(id: String) -> (HTTPResponse, String) {
        do {
            let card = try box.show(id: id).value
            return page(HTTPResponse.html(200, CardPage.html(card, sources: try editSources(card), csrf: csrf,
                                                             notice: query["done"].flatMap(Self.notice), box: boxName)))
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// `/cards/ID/asset/SIDE`: a side's file, by the card's id.
    func cardAsset(id: String, side: String) -> (HTTPResponse, String) {
        guard let side = SideName(rawValue: side) else { return page(app.notFound(section: .cards)) }
        return (asset(id: id, side: side), SecurityHeaders.assetPolicy)
    }

    /// `/review/medium/HANDLE/NAME`: a picture or sound of the shown card's sides (R31).
    func reviewMedium(handle: String, name: String) -> (HTTPResponse, String) {
        guard let shown = session.card(forHandle: handle) else { return page(app.notFound(section: .review)) }
        return (medium(id: shown.id, name: name), SecurityHeaders.assetPolicy)
    }

    /// `/cards/ID/medium/NAME`: a picture or sound of a card's sides (R31).
    func cardMedium(id: String, name: String) -> (HTTPResponse, String) {
        (medium(id: id, name: name), SecurityHeaders.assetPolicy)
    }

    static func notice(_ code: String) -> String? {
        switch code {
        case "edited": "Saved."
        case "unchanged": "Nothing changed."
        case "moved": "Moved."
        case "tagged": "Tags saved."
        case "unsuspended": "Unsuspended: back in its level."
        default: nil
        }
    }

    /// The cards matching `q` (every card without one), with the tag `tag` and in level or
    /// place `level` when given, a page at a time. Without `q` the daemon lists only the page
    /// (`List` with `after` or `before` and `limit`); a search's lines are streamed in parts and
    /// only this page's kept.
    func cardList() -> (HTTPResponse, String) {
        page(cardListPage())
    }

    private func cardListPage() -> HTTPResponse {
        let filter = CardsPage.Filter(text: query["q"]?.trimmingSpaces ?? "",
                                      tag: query["tag"].flatMap { $0.isEmpty ? nil : $0 },
                                      level: query["level"].flatMap { Level(name: $0) })
        do {
            var allTags: [TagCount] = []
            try box.tags { allTags += $0.items }
            let (entries, paging) = filter.text.isEmpty ? try listedPage(filter) : try foundPage(filter)
            return HTTPResponse.html(200, CardsPage.html(filter: filter, tags: allTags, entries: entries, paging: paging, box: boxName))
        } catch {
            return app.problem(error, section: .cards)
        }
    }

    /// A page of the listing: the cards after the position `after` names, or before the one
    /// `before` names, or the first ones. Its links name the positions of its first and last
    /// cards, so that the next page begins after its last card wherever cards have moved since
    /// (docs/web.md, "Cards"): one more card than a page is asked for, to know whether there is
    /// a page beyond.
    private func listedPage(_ filter: CardsPage.Filter) throws -> ([CardsPage.Entry], CardsPage.Paging) {
        let after = query["after"].flatMap(CardsPage.position(from:))
        let before = after == nil ? query["before"].flatMap(CardsPage.position(from:)) : nil
        var cards: [Card] = []
        // With the text, so that the list shows each card's front, not its id alone (#36).
        try box.list(level: filter.level, withText: true, tags: filter.tag.map { [$0] }, after: after, before: before,
                     limit: CardsPage.pageSize + 1) { cards += $0.items }
        let beyond = cards.count > CardsPage.pageSize
        cards = Array(cards.prefix(CardsPage.pageSize))
        if before != nil { cards.reverse() }
        // A page before whose cards have all gone (moved, deleted) shows the first page.
        if cards.isEmpty, after != nil || before != nil {
            try box.list(level: filter.level, withText: true, tags: filter.tag.map { [$0] }, limit: CardsPage.pageSize + 1) {
                cards += $0.items
            }
            return page(of: Array(cards.prefix(CardsPage.pageSize)), earlier: false, later: cards.count > CardsPage.pageSize, filter)
        }
        return page(of: cards, earlier: before != nil ? beyond : after != nil, later: before != nil || beyond, filter)
    }

    private func page(of cards: [Card], earlier: Bool, later: Bool,
                      _ filter: CardsPage.Filter) -> ([CardsPage.Entry], CardsPage.Paging) {
        func link(_ name: String, _ card: Card?) -> String? {
            card.map { name + "=" + PercentEncoding.encode(CardsPage.positionText(ListPosition(level: $0.level, id: $0.id))) }
        }
        let entries = cards.map { card in
            // The front as the learner reads it: a Markdown side (a cloze card's, say) without its
            // marks, not "Die **[…]** schläft".
            CardsPage.Entry(id: card.id, level: card.level, lines: card.front.text.map {
                [CardsPage.firstLine(AnswerText.plain($0, mediaType: card.front.mediaType))]
            } ?? [])
        }
        let summary = "\(cards.count) card\(cards.count == 1 ? "" : "s") shown, \(cards.first?.id ?? "") to \(cards.last?.id ?? "")"
        return (entries, CardsPage.Paging(summary: summary, previous: earlier ? link("before", cards.first) : nil,
                                          next: later ? link("after", cards.last) : nil))
    }

    /// A page of a search's cards, by its number (`page`, from 1): a card matches on several
    /// lines, one after another, and is one entry. The daemon is asked for the lines of the cards
    /// up to the page's last and one more (`cards`), to know whether a page follows (docs/web.md,
    /// "Cards"): it reads no card past them and ends its reply, so that the page shows once its
    /// cards are found, not once every card of the box is searched, and no call after it waits
    /// behind a search left unread. It says "more than" where it stopped counting.
    private func foundPage(_ filter: CardsPage.Filter) throws -> ([CardsPage.Entry], CardsPage.Paging) {
        // Clamped: a page number from the address must not overflow the multiplication below.
        let page = min(1_000_000, max(1, Int(query["page"] ?? "1") ?? 1)) - 1
        let first = page * CardsPage.pageSize
        let range = first..<(first + CardsPage.pageSize)
        var entries: [CardsPage.Entry] = []
        var total = 0
        var lastID: String?
        try search(filter, cards: range.upperBound + 1) { part in
            for match in part.items {
                if match.id != lastID {
                    lastID = match.id
                    if range.contains(total) { entries.append(CardsPage.Entry(id: match.id, level: match.level, lines: [])) }
                    total += 1
                }
                // A Markdown side's line as the listing shows a front: without its marks (a `.txt`
                // side's `**` is its text and stays).
                if range.contains(total - 1), match.field != .id {
                    entries[entries.count - 1].lines.append(match.mediaType.map { AnswerText.plain(match.line, mediaType: $0) } ?? match.line)
                }
            }
        }
        // The card after the page: there are more than the page's last.
        let beyond = total > range.upperBound
        if entries.isEmpty, total > 0 {
            // Past the last match (an old link, a number typed): the search was read to its
            // end, so `total` counts every match and names the page they end on.
            let last = (total - 1) / CardsPage.pageSize + 1
            let ending = total == 1 ? "the one card matching is on page 1"
                : last == 1 ? "the \(total) cards matching are on page 1" : "the \(total) cards matching end on page \(last)"
            let summary = "Page \(page + 1) is past the last match: \(ending)."
            return (entries, CardsPage.Paging(summary: summary, previous: "page=\(last)", next: nil, last: "page=\(last)"))
        }
        let shown = "\(first + 1)–\(first + entries.count)"
        let summary = beyond ? "\(shown) of more than \(range.upperBound) cards matching"
            : "\(shown) of \(total) card\(total == 1 ? "" : "s") matching"
        return (entries, CardsPage.Paging(summary: summary, previous: page > 0 ? "page=\(page)" : nil,
                                          next: beyond ? "page=\(page + 2)" : nil))
    }

    /// `Search` of `filter` for the lines of its first `cards` cards. A daemon older than
    /// `cards` refuses it (`InvalidParameter`, as every parameter its interface does not
    /// declare): it is asked again without it, for every matching line, which `foundPage` reads
    /// to the end and counts as they come (docs/web.md, "Cards").
    private func search(_ filter: CardsPage.Filter, cards: Int, _ body: (BoxReplyPart<SearchMatch>) throws -> Void) throws {
        let tags = filter.tag.map { [$0] }
        do {
            try box.search(filter.text, level: filter.level, cards: cards, tags: tags, body)
        } catch let error as VarlinkCallError {
            guard case .invalidParameter("cards", _)? = BoxError(error) else { throw error }
            try box.search(filter.text, level: filter.level, tags: tags, body)
        }
    }

    func stats() -> (HTTPResponse, String) {
        do {
            let stats = try box.stats().value
            return (HTTPResponse.html(200, app.statisticsPage(stats)), SecurityHeaders.reportPolicy)
        } catch {
            return (app.problem(error, section: .statistics), SecurityHeaders.pagePolicy)
        }
    }

    /// A side's file, by the card's id and the side, never by a path. Images and sounds are
    /// shown in the page; text as plain text; anything else is a download.
    private func asset(id: String, side: SideName) -> HTTPResponse {
        do {
            let asset = try box.readAsset(id: id, side: side).value
            let type = MediaType.of(fileName: asset.name)
            var headers: [(name: String, value: String)] = [("Cache-Control", "private, max-age=300")]
            if type.hasPrefix("image/") || type.hasPrefix("audio/") {
                headers.append(("Content-Type", type))
            } else if MediaType.isText(type) {
                headers.append(("Content-Type", "text/plain; charset=utf-8"))
            } else {
                headers.append(("Content-Type", "application/octet-stream"))
                headers.append(("Content-Disposition", "attachment; filename=\"\(side.rawValue)\(MediaType.fileExtension(asset.name).map { "." + $0.filter { $0.isLetter || $0.isNumber } } ?? "")\""))
            }
            return HTTPResponse(status: 200, headers: headers, body: asset.content)
        } catch {
            return app.problem(error, section: nil)
        }
    }

    /// A medium by its card and its name, never a path: a name that is no file name (the
    /// router already refuses `/`, `..`) or not a picture's or a sound's is not found, and the
    /// daemon reads only a name the card's sides list. Served under the asset policy (sandboxed:
    /// an SVG opened alone runs nothing) with its own media type, never sniffed.
    private func medium(id: String, name: String) -> HTTPResponse {
        let type = MediaType.of(fileName: name)
        guard MediaName.problem(name) == nil, MediaName.kind(ofMediaType: type) != nil else {
            return app.notFound(section: nil)
        }
        do {
            let asset = try box.readMedium(id: id, name: name).value
            return HTTPResponse(status: 200, headers: [("Cache-Control", "private, max-age=300"), ("Content-Type", type)],
                                body: asset.content)
        } catch let call as VarlinkCallError where { if case .invalidAsset? = BoxError(call) { true } else { false } }() {
            // No side of the card lists that name: as if there were no such file.
            return app.notFound(section: nil)
        } catch {
            return app.problem(error, section: nil)
        }
    }

    // MARK: Changing

    /// Reads a POST's form into `form` when it is one of these pages' forms (the right type, well
    /// escaped) and carries this browser's CSRF token; else returns the refusal.
    private func readForm(into form: inout [String: String], files: inout [String: MultipartForm.File]) -> HTTPResponse? {
        let contentType = request.header("content-type") ?? ""
        let type = contentType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(" ") } ?? ""
        let fields: [String: String]
        if type == "multipart/form-data" {
            guard let boundary = MultipartForm.boundary(contentType: contentType),
                  let multipart = MultipartForm(body: request.body, boundary: boundary) else {
                return app.problem(400, "A broken form", "The form's parts cannot be read.", section: .today)
            }
            fields = multipart.fields
            files = multipart.files
        } else {
            guard type == "application/x-www-form-urlencoded" else {
                return app.problem(415, "Not a form", "A change is sent by a form of these pages.", section: .today)
            }
            guard let decoded = PercentEncoding.formFields(String(decoding: request.body, as: UTF8.self)) else {
                return app.problem(400, "A broken form", "The form has a broken %-escape.", section: .today)
            }
            fields = decoded
        }
        guard let offered = fields["csrf"], ConstantTime.equal(offered, csrf) else {
            return app.problem(403, "This form is out of date",
                               "The form did not carry this browser's token, so nothing was changed. Reload the page and try again.",
                               section: .today)
        }
        form = fields
        return nil
    }

    /// `POST /review/start`: opens today's test.
    func start() -> (HTTPResponse, String) {
        do {
            _ = try box.prepare()
            return page(HTTPResponse.redirect("/review"))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `POST /review/grade`: the shown card graded, with the time since it was shown.
    func grade() -> (HTTPResponse, String) {
        let scope = Self.scope(form)
        guard let handle = form["card"], let shown = session.card(forHandle: handle),
              let correct = form["correct"].flatMap({ $0 == "yes" ? true : $0 == "no" ? false : nil }) else {
            return page(HTTPResponse.redirect(scope.path))
        }
        let elapsed = now - shown.shown
        let milliseconds = Int(min(elapsed.components.seconds, 86_400)) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
        do {
            let graded = try box.grade(id: shown.id, correct: correct, answerMs: max(0, milliseconds)).value.card
            return page(HTTPResponse.redirect(scope.path + scope.noticeJoin + "done=\(correct ? "right" : "wrong")-\(graded.level.name)"))
        } catch let error where Self.isStale(error) {
            return page(HTTPResponse.redirect(scope.path))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `POST /review/suspend`: out of the test and of every test until unsuspended (R24); the
    /// next card follows.
    func suspend() -> (HTTPResponse, String) {
        let scope = Self.scope(form)
        guard let handle = form["card"], let shown = session.card(forHandle: handle) else {
            return page(HTTPResponse.redirect(scope.path))
        }
        do {
            _ = try box.suspend(ids: [shown.id]).value
            // The next page offers to take back this suspend, by the card's handle.
            return page(HTTPResponse.redirect(scope.path + scope.noticeJoin + "done=suspended&card=\(handle)"))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `POST /review/edit`: new text for the shown card, then its answer again.
    func saveReviewEdit() -> (HTTPResponse, String) {
        let scope = Self.scope(form)
        guard let handle = form["card"], let shown = session.card(forHandle: handle), shown.answered else {
            return page(HTTPResponse.redirect(scope.path))
        }
        let answer = "/review/answer?card=\(handle)" + scope.queryTail
        do {
            let changed = try applyEdit(id: shown.id, form: form)
            return page(HTTPResponse.redirect(answer + "&done=" + (changed ? "edited" : "unchanged")))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `POST /review/undo`: the last grade taken back.
    func undo() -> (HTTPResponse, String) {
        do {
            _ = try box.undo()
            let scope = Self.scope(form)
            return page(HTTPResponse.redirect(scope.path + scope.noticeJoin + "done=undone"))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `POST /logout`: this device forgotten (revoked) and its cookie cleared; it must be
    /// paired again.
    func logout() -> (HTTPResponse, String) {
        do {
            try app.revoke(device)
        } catch {
            return page(app.problem(500, "Not logged out", "\(error)", section: .devices))
        }
        var response = HTTPResponse.redirect("/")
        response.headers.append(("Set-Cookie", app.cookie.clear(secure: app.isSecure(request))))
        return page(response)
    }

    /// `POST /cards/ID/move`: the card to another level or place.
    func move(id: String) -> (HTTPResponse, String) {
        guard let level = form["level"].flatMap({ Level(name: $0) }) else {
            return page(app.problem(400, "No such level", "A level is 1 to 7 or finished.", section: .cards))
        }
        do {
            _ = try box.move(id: id, to: level)
            return page(HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=moved"))
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// A grade for a card that is no longer the one due (graded in another tab, or undone past):
    /// the review shows the card due now.
    static func isStale(_ error: any Error) -> Bool {
        guard let call = error as? VarlinkCallError, let box = BoxError(call) else { return false }
        if case .notInTest = box { return true }
        if case .testComplete = box { return true }
        return false
    }

    /// `POST /cards/ID/edit`, the card page's edit form: the new text, then the card's page again.
    func saveCardEdit(id: String) -> (HTTPResponse, String) {
        do {
            let changed = try applyEdit(id: id, form: form)
            return page(HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=\(changed ? "edited" : "unchanged")"))
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// The text each side of `card` is edited as: a cloze card's note's, through `ReadAsset`.
    private func editSources(_ card: Card) throws -> [SideName: Asset] {
        try CardPage.editSources(card) { side in try box.readAsset(id: card.id, side: side).value }
    }

    /// New text for the text sides the form holds; a side is written under its own file name, so
    /// its media type stays (a cloze card's, the name `ReadAsset` gives its note's text). True
    /// when the card changed.
    private func applyEdit(id: String, form: [String: String]) throws -> Bool {
        let card = try box.show(id: id).value
        let sources = try editSources(card)
        var assets: [SideName: Asset] = [:]
        for name in SideName.allCases {
            guard var text = form[name.rawValue], let source = sources[name] else { continue }
            // Browsers send a textarea's line ends as CR LF.
            text = String(text.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n"))
            if Array(text.utf8) == source.content { continue }
            assets[name] = Asset(name: source.name, text: text)
        }
        if assets.isEmpty { return false }
        return try box.edit(id: id, front: assets[.front], back: assets[.back]).value.changed
    }
}
