import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// Reviewing offline (docs/rules.md, R35; docs/web.md, "Reviewing offline"): the page keeps the
/// day's test in the browser (`GET /review/kept`), reviews it from there when the box cannot be
/// reached (`/review/offline`, kept by the service worker), and sends each grade it kept once it
/// can (`POST /review/kept`). The browser is the device `web-ID` of the box, ID its public id.
extension Visit {
    /// The browser's device id in the box: its log is `.leitner/devices/web-ID/log`.
    var boxDevice: String { "web-" + device.id }

    /// `GET /review/kept`: what the page keeps, as JSON — the open test's cards still to ask in
    /// its order, each side as the review page draws it (the same escaped HTML), the files the
    /// sides need, and the session's CSRF token for the grades it sends later.
    func keptTest() -> (HTTPResponse, String) {
        do {
            let kept = try box.keepTest(device: boxDevice).value
            let cards: [JSONValue] = kept.cards.map { card in
                let media = Self.media(card)
                var files: [JSONValue] = [], sides: [String: JSONValue] = [:]
                for (side, value) in [(SideName.front, card.front), (.back, card.back)] {
                    // The side as the review page draws it, and its own file when it is no text.
                    let source = Self.source(card, side)
                    var html = SideView.html(value, name: side, source: source, media: media)
                    if !MediaType.isText(value.mediaType) { files.append(.string(source)) }
                    // Its speech when the daemon made it already (R33); one still being made is
                    // not waited for, and the kept review goes without it.
                    if let speech = try? box.speech(id: card.id, side: side).value, speech.path != nil {
                        let address = "/cards/\(PercentEncoding.encode(card.id))/voice/\(side.rawValue)"
                        html += ReviewPage.voicePlayer(address, side)
                        files.append(.string(address))
                    }
                    sides[side.rawValue] = .string(html.description)
                }
                // The media a side names (R31).
                for medium in card.front.media + card.back.media {
                    files.append(.string(media + "/" + PercentEncoding.encode(medium.name)))
                }
                return .object(["id": .string(card.id), "level": .string(card.level.name), "front": sides["front"] ?? .null,
                                "back": sides["back"] ?? .null, "files": .array(files)])
            }
            let test = kept.test
            let body: JSONValue = .object([
                "device": .string(boxDevice), "csrf": .string(csrf), "position": .int(Int64(test.position)),
                "date": .string(test.date.description), "done": .int(Int64(test.done)), "total": .int(Int64(test.cards)),
                "onFail": .string(kept.onFail), "dayEnds": .string(kept.dayEnds), "sequence": .int(Int64(kept.sequence)),
                "cards": .array(cards),
            ])
            return page(Self.json(body))
        } catch {
            return page(Self.json(.object(["error": .string(DaemonProblem(error).message)]), status: DaemonProblem(error).status))
        }
    }

    /// `POST /review/kept`: one grade the page kept (`sequence`, `card`, `correct`, `time` in ms
    /// since the epoch, `level` the page saw, `position` of its test, `ms` the answer time). The
    /// answer is JSON: `taken` (false for a grade taken before), `level` (null: the card is gone);
    /// a refusal is 422 with `error` and `reason`, which the page shows beside the grade it sets aside.
    func takeKeptGrade() -> (HTTPResponse, String) {
        guard let sequence = form["sequence"].flatMap({ Int($0) }), sequence >= 1, let id = form["card"],
              let correct = form["correct"].flatMap({ $0 == "yes" ? true : $0 == "no" ? false : nil }),
              let millis = form["time"].flatMap({ Int64($0) }), let level = form["level"].flatMap({ Level(name: $0) }) else {
            return page(Self.json(.object(["error": .string("a kept grade needs sequence, card, correct, time and level")]), status: 400))
        }
        do {
            let (taken, now, _) = try box.takeKeptGrade(device: boxDevice, sequence: sequence, id: id, correct: correct,
                                                         time: DayClock.rfc3339Milliseconds(millis),
                                                         answerMs: form["ms"].flatMap { Int($0) }.map { min(max(0, $0), Box.maxAnswerMs) },
                                                         level: level, position: form["position"].flatMap { Int($0) }).value
            return page(Self.json(.object(["taken": .bool(taken), "level": now.map { .string($0.name) } ?? .null])))
        } catch {
            let problem = DaemonProblem(error)
            var body: [String: JSONValue] = ["error": .string(problem.message)]
            // A refusal's reason alone, for the page's own sentence naming the card and the
            // answer (R35): the device's id that the message begins with means nothing on a phone.
            if let call = error as? VarlinkCallError, case .keptGradeRefused(_, let reason)? = BoxError(call) {
                body["reason"] = .string(reason)
            }
            return page(Self.json(.object(body), status: problem.status))
        }
    }

    /// `GET /cards/ID/voice/SIDE`: the speech of a card's side (R33), a WAV file, for the review
    /// kept offline, which keeps it with the card; 404 while it is not made.
    func cardVoice(id: String, side: String) -> (HTTPResponse, String) {
        guard let side = SideName(rawValue: side), side == .front || side == .back else { return page(app.notFound(section: .cards)) }
        do {
            guard let data = try box.speech(id: id, side: side, withData: true).value.data else { return page(app.notFound(section: .cards)) }
            return (HTTPResponse(status: 200, headers: [("Content-Type", "audio/wav"), ("Cache-Control", "private, max-age=300")], body: data),
                    SecurityHeaders.assetPolicy)
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// `GET /review/kept/token`: the session's CSRF token, for a page that kept its grades across a
    /// restart of leitner-web (the sessions live in its memory).
    func keptToken() -> (HTTPResponse, String) {
        page(Self.json(.object(["csrf": .string(csrf)])))
    }

    /// `GET /review/offline`: the review drawn by the script from what the page kept; the service
    /// worker keeps this page and serves it when a review page cannot be reached.
    func offlinePage() -> (HTTPResponse, String) {
        page(HTTPResponse.html(200, OfflinePage.html(box: boxName)))
    }

    /// A side's file for a page that keeps it: the card's own asset route.
    static func source(_ card: Card, _ side: SideName) -> String {
        "/cards/\(PercentEncoding.encode(card.id))/asset/\(side.rawValue)"
    }

    /// Where a kept card's media are read: the card's own media route (R31).
    static func media(_ card: Card) -> String {
        "/cards/\(PercentEncoding.encode(card.id))/medium"
    }

    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                     body: value.serialized)
    }
}
