/// One address of the site and how it is answered: the route table (`WebRoute.table`) is every
/// page, file and change leitner-web serves, as `CommandTable` is every command of leitnerctl.
/// `WebApp` and `Visit` find a request's route in it, docs/web.md lists it, and the fuzzer's
/// HTTP mode (`leitner-fuzz --http`) sends a request to each of its entries.
public struct WebRoute: Sendable {
    /// A segment of a route's path: a fixed word, or a value the handler receives.
    public enum Part: Sendable, Equatable {
        case word(String)
        /// A card's id (`/cards/ID`).
        case card
        /// The review's handle of a shown card, which hides its id until the answer is shown.
        case handle
        /// A side's name, `front` or `back`.
        case side
        /// A medium's name (R31): one file name a side of the card lists.
        case medium
        /// The name of an embedded file (`EmbeddedAssets`).
        case file
        /// A pairing code (`/pair/CODE`), which opens once.
        case code
        /// A device's public id (`/devices/DEVICE`), never its secret.
        case device
    }

    /// How the route is answered: before the door (no session), or as a visit of a browser that
    /// is let in. Both get the values of the path's parts that are not words, in order.
    enum Handler: Sendable {
        case open(@Sendable (WebApp, HTTPRequest, [String]) -> (HTTPResponse, String))
        case visit(@Sendable (Visit, [String]) -> (HTTPResponse, String))
    }

    /// `.get` (which answers HEAD too) reads; `.post` changes, with a form carrying the session's
    /// CSRF token.
    public let method: HTTPMethod
    public let parts: [Part]
    /// The fields of the form a POST reads besides `csrf`, or the query a GET reads.
    public let fields: [String]
    let handler: Handler

    /// Whether the route is answered without a session.
    public var isOpen: Bool {
        if case .open = handler { return true }
        return false
    }

    /// The path as docs/web.md writes it: `/cards/ID/asset/SIDE`.
    public var pattern: String {
        "/" + parts.map { part in
            switch part {
            case .word(let word): word
            case .card: "ID"
            case .handle: "HANDLE"
            case .side: "SIDE"
            case .medium: "NAME"
            case .file: "FILE"
            case .code: "CODE"
            case .device: "DEVICE"
            }
        }.joined(separator: "/")
    }

    /// The values of `segments` for this route's parts, or nil when the path is not this route's.
    func values(_ segments: [String]) -> [String]? {
        guard segments.count == parts.count else { return nil }
        var values: [String] = []
        for (part, segment) in zip(parts, segments) {
            if case .word(let word) = part {
                guard word == segment else { return nil }
            } else {
                values.append(segment)
            }
        }
        return values
    }

    /// The route a request goes to: the first entry with its method (HEAD is GET) and path.
    public static func find(_ method: HTTPMethod, _ segments: [String]) -> (route: WebRoute, values: [String])? {
        let wanted: HTTPMethod = method == .post ? .post : .get
        for route in table where route.method == wanted {
            if let values = route.values(segments) { return (route, values) }
        }
        return nil
    }

    /// Every route, in the order docs/web.md lists them.
    public static let table: [WebRoute] = [
        WebRoute(method: .get, parts: [.word("static"), .file], fields: [],
                 handler: .open { app, request, values in app.staticFile(values[0], request: request) }),
        WebRoute(method: .get, parts: [.word("worker.js")], fields: [],
                 handler: .open { app, request, _ in app.worker(request: request) }),
        WebRoute(method: .get, parts: [.word("pair"), .code], fields: [],
                 handler: .open { app, request, values in app.pair(values[0], request: request) }),
        WebRoute(method: .get, parts: [], fields: [], handler: .visit { visit, _ in visit.today() }),
        WebRoute(method: .get, parts: [.word("review")], fields: ["tag"], handler: .visit { visit, _ in visit.reviewFront() }),
        WebRoute(method: .get, parts: [.word("review"), .word("answer")], fields: ["card", "tag", "done"],
                 handler: .visit { visit, _ in visit.reviewAnswer() }),
        WebRoute(method: .get, parts: [.word("review"), .word("edit")], fields: ["card", "tag"],
                 handler: .visit { visit, _ in visit.reviewEditPage() }),
        WebRoute(method: .get, parts: [.word("review"), .word("asset"), .handle, .side], fields: [],
                 handler: .visit { visit, values in visit.reviewAsset(handle: values[0], side: values[1]) }),
        WebRoute(method: .get, parts: [.word("review"), .word("medium"), .handle, .medium], fields: [],
                 handler: .visit { visit, values in visit.reviewMedium(handle: values[0], name: values[1]) }),
        WebRoute(method: .get, parts: [.word("review"), .word("kept")], fields: [], handler: .visit { visit, _ in visit.keptTest() }),
        WebRoute(method: .get, parts: [.word("review"), .word("kept"), .word("token")], fields: [],
                 handler: .visit { visit, _ in visit.keptToken() }),
        WebRoute(method: .get, parts: [.word("review"), .word("offline")], fields: [], handler: .visit { visit, _ in visit.offlinePage() }),
        WebRoute(method: .get, parts: [.word("cards")], fields: ["q", "tag", "level", "page", "after", "before"],
                 handler: .visit { visit, _ in visit.cardList() }),
        // Before `/cards/ID`: `new` is no card's page.
        WebRoute(method: .get, parts: [.word("cards"), .word("new")], fields: ["added", "more", "tags", "level"],
                 handler: .visit { visit, _ in visit.newCardPage() }),
        WebRoute(method: .get, parts: [.word("cards"), .card], fields: ["done"],
                 handler: .visit { visit, values in visit.cardPage(id: values[0]) }),
        WebRoute(method: .get, parts: [.word("cards"), .card, .word("asset"), .side], fields: [],
                 handler: .visit { visit, values in visit.cardAsset(id: values[0], side: values[1]) }),
        WebRoute(method: .get, parts: [.word("cards"), .card, .word("medium"), .medium], fields: [],
                 handler: .visit { visit, values in visit.cardMedium(id: values[0], name: values[1]) }),
        WebRoute(method: .get, parts: [.word("cards"), .card, .word("voice"), .side], fields: [],
                 handler: .visit { visit, values in visit.cardVoice(id: values[0], side: values[1]) }),
        WebRoute(method: .get, parts: [.word("stats")], fields: [], handler: .visit { visit, _ in visit.stats() }),
        WebRoute(method: .get, parts: [.word("devices")], fields: ["done"], handler: .visit { visit, _ in visit.devicesPage() }),
        WebRoute(method: .post, parts: [.word("review"), .word("start")], fields: [],
                 handler: .visit { visit, _ in visit.start() }),
        WebRoute(method: .get, parts: [.word("review"), .word("voice"), .handle, .side], fields: [],
                 handler: .visit { visit, values in visit.reviewVoice(handle: values[0], side: values[1]) }),
        WebRoute(method: .post, parts: [.word("review"), .word("typed")], fields: ["card", "answer", "tag"],
                 handler: .visit { visit, _ in visit.typedAnswer() }),
        WebRoute(method: .post, parts: [.word("review"), .word("typing")], fields: ["on", "tag"],
                 handler: .visit { visit, _ in visit.setTyping() }),
        WebRoute(method: .post, parts: [.word("review"), .word("grade")], fields: ["card", "correct", "tag"],
                 handler: .visit { visit, _ in visit.grade() }),
        WebRoute(method: .post, parts: [.word("review"), .word("suspend")], fields: ["card", "tag"],
                 handler: .visit { visit, _ in visit.suspend() }),
        WebRoute(method: .post, parts: [.word("review"), .word("unsuspend")], fields: ["card", "tag"],
                 handler: .visit { visit, _ in visit.unsuspendShown() }),
        WebRoute(method: .post, parts: [.word("review"), .word("edit")], fields: ["card", "front", "back", "tag"],
                 handler: .visit { visit, _ in visit.saveReviewEdit() }),
        WebRoute(method: .post, parts: [.word("review"), .word("kept")],
                 fields: ["sequence", "card", "correct", "time", "level", "position", "ms"],
                 handler: .visit { visit, _ in visit.takeKeptGrade() }),
        WebRoute(method: .post, parts: [.word("review"), .word("undo")], fields: ["tag"],
                 handler: .visit { visit, _ in visit.undo() }),
        WebRoute(method: .post, parts: [.word("cards"), .card, .word("edit")], fields: ["front", "back"],
                 handler: .visit { visit, values in visit.saveCardEdit(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("cards"), .card, .word("move")], fields: ["level"],
                 handler: .visit { visit, values in visit.move(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("devices"), .device, .word("rename")], fields: ["name"],
                 handler: .visit { visit, values in visit.renameDevice(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("devices"), .device, .word("revoke")], fields: [],
                 handler: .visit { visit, values in visit.revokeDevice(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("cards"), .word("new")],
                 fields: ["front", "front-kind", "front-markdown", "front-photo", "front-drawing",
                          "back", "back-kind", "back-markdown", "back-photo", "back-drawing", "tags", "level", "reverse", "type-answer", "id",
                          "force"],
                 handler: .visit { visit, _ in visit.addCard() }),
        WebRoute(method: .post, parts: [.word("cards"), .word("new-cloze")], fields: ["text", "extra", "tags", "level", "id", "type-answer"],
                 handler: .visit { visit, _ in visit.addClozeNote() }),
        WebRoute(method: .post, parts: [.word("cards"), .card, .word("tags")], fields: ["tags"],
                 handler: .visit { visit, values in visit.saveTags(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("cards"), .card, .word("unsuspend")], fields: [],
                 handler: .visit { visit, values in visit.unsuspendCard(id: values[0]) }),
        WebRoute(method: .post, parts: [.word("logout")], fields: [], handler: .visit { visit, _ in visit.logout() }),
    ]
}
