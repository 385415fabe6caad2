import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// One request of a browser that is let in: the routes behind the door. A GET only reads; every
/// change is a POST whose form carries the session's CSRF token, checked before anything else.
struct Visit {
    let app: WebApp
    let request: HTTPRequest
    let segments: [String]
    let query: [String: String]
    let sessionID: String
    let session: Session
    let now: MonotonicTime

    var box: BoxClient { app.box }
    var csrf: String { session.csrf }

    func answer() -> (HTTPResponse, String) {
        if request.method == .post {
            return (post(), SecurityHeaders.pagePolicy)
        }
        switch segments.first {
        case nil: return (today(), SecurityHeaders.pagePolicy)
        case "review": return (reviewGet(), SecurityHeaders.pagePolicy)
        case "cards": return cardsGet()
        case "stats" where segments.count == 1: return stats()
        default: return (app.notFound(section: .today), SecurityHeaders.pagePolicy)
        }
    }

    // MARK: Reading

    private func today() -> HTTPResponse {
        do {
            let status = try box.status().value
            let monday = status.today.adding(days: -status.today.weekday)
            var week: [CalendarDay] = []
            try box.calendar(from: monday, to: monday.adding(days: 6)) { week += $0.items }
            return HTTPResponse.html(200, TodayPage.html(status: status, week: week, csrf: csrf))
        } catch {
            return app.problem(error, section: .today)
        }
    }

    private func reviewGet() -> HTTPResponse {
        let rest = Array(segments.dropFirst())
        if rest.isEmpty {
            do {
                // `Next` opens today's test when it is not open yet, as `leitnerctl next` does: the
                // test is the day's whoever opens it, so this GET decides nothing a person could.
                let (card, test) = try box.next().value
                guard let card else { return HTTPResponse.html(200, ReviewPage.finished(test, csrf: csrf)) }
                let handle = app.sessions.update(sessionID) { session in
                    session.handle(for: card.id, now: now) { (try? RandomBytes.hex(12)) ?? String(now.nanoseconds, radix: 36) }
                } ?? ""
                return HTTPResponse.html(200, ReviewPage.front(card, handle: handle, test: test, csrf: csrf))
            } catch {
                return app.problem(error, section: .review)
            }
        }
        if rest == ["answer"] {
            guard let handle = query["card"], let shown = session.card(forHandle: handle) else {
                return HTTPResponse.redirect("/review")
            }
            do {
                let (card, test) = try box.next().value
                // The card was graded meanwhile (another tab, the terminal): show the one due now.
                guard let card, card.id == shown.id else { return HTTPResponse.redirect("/review") }
                return HTTPResponse.html(200, ReviewPage.answer(card, handle: handle, test: test, csrf: csrf))
            } catch {
                return app.problem(error, section: .review)
            }
        }
        if rest.count == 3, rest[0] == "asset", let shown = session.card(forHandle: rest[1]), let side = SideName(rawValue: rest[2]) {
            return asset(id: shown.id, side: side)
        }
        return app.notFound(section: .review)
    }

    private func cardsGet() -> (HTTPResponse, String) {
        let policy = SecurityHeaders.pagePolicy
        let rest = Array(segments.dropFirst())
        if rest.isEmpty { return (cardList(), policy) }
        if rest.count == 1 {
            let id = rest[0]
            do {
                let card = try box.show(id: id).value
                return (HTTPResponse.html(200, CardPage.html(card, csrf: csrf, notice: query["done"].flatMap(Self.notice))), policy)
            } catch {
                return (app.problem(error, section: .cards), policy)
            }
        }
        if rest.count == 3, rest[1] == "asset", let side = SideName(rawValue: rest[2]) {
            return (asset(id: rest[0], side: side), SecurityHeaders.assetPolicy)
        }
        return (app.notFound(section: .cards), policy)
    }

    static func notice(_ code: String) -> String? {
        switch code {
        case "edited": "Saved."
        case "unchanged": "Nothing changed."
        case "moved": "Moved."
        default: nil
        }
    }

    /// The cards matching `q` (every card without one), a page at a time. The daemon streams
    /// them in parts; only this page's are kept.
    private func cardList() -> HTTPResponse {
        let text = query["q"]?.trimmingSpaces ?? ""
        // Clamped: a page number from the address must not overflow the multiplication below.
        let page = min(1_000_000, max(1, Int(query["page"] ?? "1") ?? 1)) - 1
        let first = page * CardsPage.pageSize
        let range = first..<(first + CardsPage.pageSize)
        var entries: [CardsPage.Entry] = []
        var total = 0
        do {
            if text.isEmpty {
                try box.list(withText: false) { part in
                    for card in part.items {
                        if range.contains(total) { entries.append(CardsPage.Entry(id: card.id, level: card.level, lines: [])) }
                        total += 1
                    }
                }
            } else {
                // A card matches on several lines, one after another: it is one entry.
                var lastID: String?
                try box.search(text) { part in
                    for match in part.items {
                        if match.id != lastID {
                            lastID = match.id
                            if range.contains(total) { entries.append(CardsPage.Entry(id: match.id, level: match.level, lines: [])) }
                            total += 1
                        }
                        if range.contains(total - 1), match.field != .id { entries[entries.count - 1].lines.append(match.line) }
                    }
                }
            }
        } catch {
            return app.problem(error, section: .cards)
        }
        return HTTPResponse.html(200, CardsPage.html(query: text, entries: entries, total: total, page: page))
    }

    private func stats() -> (HTTPResponse, String) {
        do {
            let stats = try box.stats().value
            return (HTTPResponse.html(200, StatsPage.html(stats)), SecurityHeaders.reportPolicy)
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

    // MARK: Changing

    private func post() -> HTTPResponse {
        let type = request.header("content-type")?.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(" ") } ?? ""
        guard type == "application/x-www-form-urlencoded" else {
            return app.problem(415, "Not a form", "A change is sent by a form of these pages.", section: .today)
        }
        guard let form = PercentEncoding.formFields(String(decoding: request.body, as: UTF8.self)) else {
            return app.problem(400, "A broken form", "The form has a broken %-escape.", section: .today)
        }
        guard let offered = form["csrf"], ConstantTime.equal(offered, csrf) else {
            return app.problem(403, "This form is out of date",
                               "The form did not carry this browser's token, so nothing was changed. Reload the page and try again.",
                               section: .today)
        }
        if segments.count == 3, segments[0] == "cards" {
            let id = segments[1]
            switch segments[2] {
            case "edit": return edit(id: id, form: form)
            case "move": return move(id: id, form: form)
            default: break
            }
        }
        switch segments {
        case ["review", "start"]:
            do {
                _ = try box.prepare()
                return HTTPResponse.redirect("/review")
            } catch {
                return app.problem(error, section: .review)
            }
        case ["review", "grade"]:
            guard let handle = form["card"], let shown = session.card(forHandle: handle),
                  let correct = form["correct"].flatMap({ $0 == "yes" ? true : $0 == "no" ? false : nil }) else {
                return HTTPResponse.redirect("/review")
            }
            let elapsed = now - shown.shown
            let milliseconds = Int(min(elapsed.components.seconds, 86_400)) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
            do {
                _ = try box.grade(id: shown.id, correct: correct, answerMs: max(0, milliseconds))
                return HTTPResponse.redirect("/review")
            } catch let error where Self.isStale(error) {
                return HTTPResponse.redirect("/review")
            } catch {
                return app.problem(error, section: .review)
            }
        case ["review", "undo"]:
            do {
                _ = try box.undo()
                return HTTPResponse.redirect("/review")
            } catch {
                return app.problem(error, section: .review)
            }
        case ["logout"]:
            app.close(session: sessionID)
            var response = HTTPResponse.redirect("/")
            response.headers.append(("Set-Cookie", "\(CookieHeader.name)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"))
            return response
        default:
            return app.problem(405, "Not a change", "Nothing is changed at this address.", section: .today)
        }
    }

    private func move(id: String, form: [String: String]) -> HTTPResponse {
        guard let level = form["level"].flatMap({ Level(name: $0) }) else {
            return app.problem(400, "No such level", "A level is 1 to 7 or finished.", section: .cards)
        }
        do {
            _ = try box.move(id: id, to: level)
            return HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=moved")
        } catch {
            return app.problem(error, section: .cards)
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

    /// New text for the text sides the form holds; a side is written under its own file name, so
    /// its media type stays.
    private func edit(id: String, form: [String: String]) -> HTTPResponse {
        do {
            let card = try box.show(id: id).value
            var assets: [SideName: Asset] = [:]
            for name in SideName.allCases {
                let side = card.side(name)
                guard var text = form[name.rawValue], MediaType.isText(side.mediaType) else { continue }
                // Browsers send a textarea's line ends as CR LF.
                text = String(text.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n"))
                if text == side.text { continue }
                let fileName = side.path.split(separator: "/").last.map(String.init) ?? "\(name.rawValue).txt"
                assets[name] = Asset(name: fileName, text: text)
            }
            if assets.isEmpty { return HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=unchanged") }
            let changed = try box.edit(id: id, front: assets[.front], back: assets[.back]).value.changed
            return HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=\(changed ? "edited" : "unchanged")")
        } catch {
            return app.problem(error, section: .cards)
        }
    }
}
