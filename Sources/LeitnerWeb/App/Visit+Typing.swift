import LeitnerCore
import LeitnerProtocol

/// The review's typed answers (docs/rules.md R32) and voice (R33).
extension Visit {
    /// The cookie that keeps this browser's "Type every answer": the setting is the device's
    /// (each browser is one), kept by the browser as the device's own cookie is.
    static let typingCookie = "leitner-typing"

    /// Whether this browser types every answer.
    var typesEveryAnswer: Bool {
        CookieHeader.values(named: Visit.typingCookie, in: request.headers.filter { $0.name == "cookie" }.map(\.value)).last == "yes"
    }

    /// What the review page shows of `card` beyond its sides: the typing form (the front), the
    /// speech of the sides shown (the back's only once the answer is shown: it would say it).
    func reviewExtras(_ card: Card, answered: Bool, verdict: AnswerCheck.Verdict? = nil) -> ReviewPage.Extras {
        var voices: Set<SideName> = []
        for side in answered ? [SideName.front, .back] : [.front] {
            guard let reply = try? box.speech(id: card.id, side: side).value else { continue }
            if reply.path != nil || reply.pending { voices.insert(side) }
        }
        return ReviewPage.Extras(typing: !answered && TypedAnswer.expected(card, everyCard: typesEveryAnswer) != nil,
                                 typesEvery: typesEveryAnswer, voices: voices, verdict: verdict)
    }

    /// `POST /review/typing`: "Type every answer" on (`on=yes`) or off for this browser.
    func setTyping() -> (HTTPResponse, String) {
        let on = form["on"] == "yes"
        var response = HTTPResponse.redirect(Self.scope(form).path)
        response.headers.append(("Set-Cookie", "\(Visit.typingCookie)=\(on ? "yes" : "no"); Path=/; Max-Age=\(CookieHeader.maxAge); HttpOnly; SameSite=Strict"
            + (app.isSecure(request) ? "; Secure" : "")))
        return page(response)
    }

    /// `POST /review/typed`: the typed answer of the shown card compared with the expected one
    /// (the core's `AnswerCheck`, as the terminal's), and the answer shown beside it with the
    /// proposed grade marked; the learner confirms it or chooses the other (R32).
    func typedAnswer() -> (HTTPResponse, String) {
        let scope = Self.scope(form)
        guard let handle = form["card"], let shown = session.card(forHandle: handle) else {
            return page(HTTPResponse.redirect(scope.path))
        }
        do {
            let (card, test, outside) = try head(scope)
            guard let card, card.id == shown.id else { return page(HTTPResponse.redirect(scope.path)) }
            guard let expected = TypedAnswer.expected(card, everyCard: true) else {
                return page(HTTPResponse.redirect("/review/answer?card=\(handle)" + scope.queryTail))
            }
            let verdict = AnswerCheck(ignoresAccents: app.ignoresAccents).check(typed: form["answer"] ?? "", expected: expected)
            app.sessions.update(sessionID) { $0.markAnswered(handle) }
            return page(HTTPResponse.html(200, ReviewPage.answer(card, handle: handle, test: test, scope: scope, outside: outside, csrf: csrf,
                                                                  box: boxName, extras: reviewExtras(card, answered: true, verdict: verdict))))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }

    /// `/review/voice/HANDLE/SIDE`: the speech of a side of the card under review (R33), a WAV
    /// file; the back's only once the answer was shown. Not made yet: 404, and the player shows
    /// no sound (the page offers it only when it is made or being made).
    func reviewVoice(handle: String, side: String) -> (HTTPResponse, String) {
        guard let shown = session.card(forHandle: handle), let side = SideName(rawValue: side), side == .front || shown.answered else {
            return page(app.notFound(section: .review))
        }
        do {
            guard let data = try box.speech(id: shown.id, side: side, withData: true).value.data else {
                return page(app.notFound(section: .review))
            }
            return (HTTPResponse(status: 200, headers: [("Content-Type", "audio/wav"), ("Cache-Control", "private, max-age=300")], body: data),
                    SecurityHeaders.assetPolicy)
        } catch {
            return page(app.problem(error, section: .review))
        }
    }
}
