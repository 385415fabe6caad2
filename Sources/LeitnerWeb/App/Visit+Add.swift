import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// Adding a card, its tags, and taking a suspended card back: the changes of #36's phone pages.
extension Visit {
    /// `/cards/new`: the empty form; after an add, the card's id and the tags and level kept for
    /// the next card.
    func newCardPage() -> (HTTPResponse, String) {
        var draft = NewCardPage.Draft()
        draft.tags = query["tags"] ?? ""
        if let level = query["level"], level.isEmpty || Level(name: level) != nil { draft.level = level }
        let more = query["more"].flatMap { Int($0) }.map { min(max($0, 0), 1000) } ?? 0
        return page(HTTPResponse.html(200, NewCardPage.html(draft, csrf: csrf, added: query["added"], more: more, box: boxName)))
    }

    /// `POST /cards/new`: the card (and its reverse) added, then the form again for the next;
    /// a refusal shows the form again with the reason beside its field and the text kept.
    func addCard() -> (HTTPResponse, String) {
        var draft = NewCardPage.Draft()
        draft.tags = form["tags"] ?? ""
        draft.level = form["level"] ?? ""
        draft.reverse = form["reverse"] == "yes"
        draft.typeAnswer = form["type-answer"] == "yes"
        draft.id = form["id"]?.trimmingSpaces ?? ""
        var sides: [SideName: Asset] = [:]
        for side in SideName.allCases {
            let name = side.rawValue
            draft.text[side] = form[name].map(Self.lineEnds) ?? ""
            if form["\(name)-markdown"] == "yes" { draft.markdown.insert(side) }
            draft.kind[side] = form["\(name)-kind"] ?? "text"
            switch sideAsset(side, draft) {
            case .success(let asset): sides[side] = asset
            case .failure(let refusal): draft.errors[name] = refusal.message
            }
        }
        let (level, tags) = Self.levelAndTags(&draft)
        guard draft.errors.isEmpty, let front = sides[.front], let back = sides[.back] else { return refused(draft) }
        do {
            let id = draft.id.isEmpty ? nil : draft.id
            // A second card with the same front only when asked, as `leitnerctl add --force`.
            let force = form["force"] == "yes"
            // The tags in the same change as the card (and its reverse, R28), not a `Tag` after it.
            let card = draft.reverse
                ? try box.addWithReverse(front: front, back: back, id: id, level: level, allowDuplicate: force,
                                         typeAnswer: draft.typeAnswer, tags: tags).value.card
                : try box.add(front: front, back: back, id: id, level: level, allowDuplicate: force, typeAnswer: draft.typeAnswer,
                              tags: tags).value
            var next = "/cards/new?added=\(PercentEncoding.encode(card.id))&level=\(draft.level)"
            if !draft.tags.isEmpty { next += "&tags=" + PercentEncoding.encode(draft.tags) }
            return page(HTTPResponse.redirect(next))
        } catch {
            guard let field = Self.field(of: error) else { return page(app.problem(error, section: .cards)) }
            draft.errors[field] = DaemonProblem(error).message
            return refused(draft)
        }
    }

    /// `POST /cards/new-cloze`: a cloze note added (`AddCloze`, R30), then the form again for the
    /// next, naming its first card; a refusal shows the cloze form again, open, with the reason
    /// beside its field.
    func addClozeNote() -> (HTTPResponse, String) {
        var draft = NewCardPage.Draft()
        let text = form["text"].map(Self.lineEnds) ?? ""
        draft.cloze = text
        draft.extra = form["extra"].map(Self.lineEnds) ?? ""
        draft.tags = form["tags"] ?? ""
        draft.level = form["level"] ?? ""
        draft.id = form["id"]?.trimmingSpaces ?? ""
        draft.typeAnswer = form["type-answer"] == "yes"
        if !text.contains("{{c") || !text.contains("::") {
            draft.errors["text"] = "Mark each gap as {{c1::word}}: a note without one asks nothing."
        }
        let (level, tags) = Self.levelAndTags(&draft)
        guard draft.errors.isEmpty else { return refused(draft) }
        do {
            let cards = try box.addCloze(text: text, id: draft.id.isEmpty ? nil : draft.id, level: level,
                                         extra: draft.extra.isEmpty ? nil : draft.extra, tags: tags, typeAnswer: draft.typeAnswer).value
            guard let first = cards.first else { return page(HTTPResponse.redirect("/cards/new")) }
            var next = "/cards/new?added=\(PercentEncoding.encode(first.id))&more=\(cards.count - 1)&level=\(draft.level)"
            if !draft.tags.isEmpty { next += "&tags=" + PercentEncoding.encode(draft.tags) }
            return page(HTTPResponse.redirect(next))
        } catch {
            if let call = error as? VarlinkCallError, case .invalidParameter(let name, _)? = BoxError(call) {
                draft.errors[name == "extra" ? "text" : name] = "The daemon refused the note's \(name)."
                return refused(draft)
            }
            // A side the daemon refused is the note's text here.
            guard let field = Self.field(of: error) else { return page(app.problem(error, section: .cards)) }
            draft.errors[field == "front" || field == "back" ? "text" : field] = DaemonProblem(error).message
            return refused(draft)
        }
    }

    /// The draft's level (nil for leitnerctl add's choice) and tags, each refusal noted beside its field.
    static func levelAndTags(_ draft: inout NewCardPage.Draft) -> (Level?, [String]) {
        let level = draft.level.isEmpty ? nil : Level(name: draft.level)
        if !draft.level.isEmpty, level == nil || level == .finished || level == .suspended {
            draft.errors["level"] = "A new card goes to new or to a level, 1 to 7."
        }
        let tags = Self.tagWords(draft.tags)
        if let problem = tags.lazy.compactMap({ tag in CardTag.problem(tag).map { "'\(tag)' is not a tag: \($0)." } }).first {
            draft.errors["tags"] = problem
        }
        return (level, tags)
    }

    /// The form again with its refusals: 400 for what the page refused, 409 for the box's.
    private func refused(_ draft: NewCardPage.Draft) -> (HTTPResponse, String) {
        page(HTTPResponse.html(400, NewCardPage.html(draft, csrf: csrf, box: boxName)))
    }

    /// The field a refusal of `Add` is about, or nil for one about no field (the daemon away).
    static func field(of error: any Error) -> String? {
        guard let call = error as? VarlinkCallError, let box = BoxError(call) else { return nil }
        switch box {
        case .duplicateFront: return "front"
        case .cardExists, .invalidCardId: return "id"
        case .invalidTag: return "tags"
        case .invalidLevel: return "level"
        // The page names each side's file after its side (`front.png`).
        case .invalidAsset(let name, _): return name.hasPrefix("back.") ? "back" : "front"
        default: return nil
        }
    }

    /// A refusal of the page itself, before the daemon is asked.
    struct Refusal: Error {
        var message: String
    }

    /// A side's file as the form gives it: its text (`.md` when Markdown), the photo, or the
    /// drawing, which must be a PNG.
    private func sideAsset(_ side: SideName, _ draft: NewCardPage.Draft) -> Result<Asset, Refusal> {
        let name = side.rawValue
        switch draft.kind[side] ?? "text" {
        case "photo":
            guard let photo = files["\(name)-photo"], !photo.content.isEmpty else {
                return .failure(Refusal(message: "Take a photo or choose a picture for the \(name)."))
            }
            guard let ext = Self.imageExtension(photo) else {
                return .failure(Refusal(message: "'\(photo.fileName)' is not a picture (\(photo.contentType))."))
            }
            return .success(Asset(name: "\(name).\(ext)", content: photo.content))
        case "drawing":
            guard let drawing = files["\(name)-drawing"], !drawing.content.isEmpty else {
                return .failure(Refusal(message: "Draw the \(name) first."))
            }
            guard drawing.content.starts(with: Self.pngSignature) else {
                return .failure(Refusal(message: "The drawing did not arrive as a PNG picture."))
            }
            return .success(Asset(name: "\(name).png", content: drawing.content))
        default:
            return .success(Asset(name: "\(name).\(draft.markdown.contains(side) ? "md" : "txt")", text: draft.text[side] ?? ""))
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The extension a photo is stored under: its file name's when that names an image, else the
    /// one of the type the browser sent.
    static func imageExtension(_ file: MultipartForm.File) -> String? {
        if let ext = MediaType.fileExtension(file.fileName)?.lowercased(),
           MediaType.of(fileName: "x.\(ext)").hasPrefix("image/") {
            return ext
        }
        switch file.contentType.lowercased() {
        case "image/jpeg": return "jpg"
        case "image/png": return "png"
        case "image/gif": return "gif"
        case "image/webp": return "webp"
        default: return nil
        }
    }

    /// Browsers send a textarea's line ends as CR LF.
    static func lineEnds(_ text: String) -> String {
        String(text.split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n"))
    }

    /// The tags a field holds, separated by spaces or commas.
    static func tagWords(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// `POST /cards/ID/tags`: the card's tags made those of the field, then its page again.
    func saveTags(id: String) -> (HTTPResponse, String) {
        let wanted = Self.tagWords(form["tags"] ?? "")
        do {
            let card = try box.show(id: id).value
            let added = wanted.filter { !card.tags.contains($0) }
            let removed = card.tags.filter { !wanted.contains($0) }
            if !added.isEmpty { _ = try box.tag(id: id, tags: added) }
            if !removed.isEmpty { _ = try box.untag(id: id, tags: removed) }
            let done = added.isEmpty && removed.isEmpty ? "unchanged" : "tagged"
            return page(HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=\(done)"))
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// `POST /cards/ID/unsuspend`: back to the level it was suspended from (R24).
    func unsuspendCard(id: String) -> (HTTPResponse, String) {
        do {
            _ = try box.unsuspend(ids: [id])
            return page(HTTPResponse.redirect("/cards/\(PercentEncoding.encode(id))?done=unsuspended"))
        } catch {
            return page(app.problem(error, section: .cards))
        }
    }

    /// `POST /review/unsuspend`: the suspend just made in the review taken back; the card is due
    /// again when its level is in today's test (R24).
    func unsuspendShown() -> (HTTPResponse, String) {
        let scope = Self.scope(form)
        guard let handle = form["card"], let shown = session.card(forHandle: handle) else {
            return page(HTTPResponse.redirect(scope.path))
        }
        do {
            _ = try box.unsuspend(ids: [shown.id])
            return page(HTTPResponse.redirect(scope.path + scope.noticeJoin + "done=unsuspended"))
        } catch {
            return page(app.problem(error, section: .review))
        }
    }
}
