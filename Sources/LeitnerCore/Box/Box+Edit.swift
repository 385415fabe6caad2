/// The requests that change a card in place: `Edit` (new sides) and `Rename` (a new id). Both
/// keep the card's level, its place in the open test and its history.
extension Box {
    /// Replaces one side of a card or both, each durably and at once (R17, R18), and logs an
    /// `edit` (R16). A side given with the same file name and bytes as it has is no change;
    /// when nothing changes, nothing is written or logged. The card is edited where it is now,
    /// whatever moved or graded it since the client read it.
    /// - Parameters:
    ///   - front: the new front, or nil to keep it; its name gives the extension (`front.md`).
    ///   - back: the new back, or nil to keep it.
    /// - Returns: the card as it is now, and whether it changed.
    /// - Throws: `noSuchCard` when the card is gone; `invalidAsset` for an empty side or a bad
    ///   name; `storeFailure` for a damaged card (R21: never touched) or a failed write.
    ///
    /// A reverse card (R28) has no sides of its own: its front is given to the card it reverses
    /// as that card's back, and its back as the front, so the edit shows in both directions. The
    /// `edit` logged is that card's, whose files changed.
    public func edit(id: String, front: Asset?, back: Asset?) throws(BoxError) -> (card: Card, changed: Bool) {
        try CardID.validate(id)
        guard front != nil || back != nil else {
            throw .invalidParameter(name: "front", reason: "give the front, the back or both")
        }
        _ = try begin()
        guard store.level(of: id) != nil else { throw .noSuchCard(id: id) }
        let shown = try store.card(id, withText: false)
        if let link = shown.clozeOf { return try editNote(of: id, link, front: front, back: back) }
        if let original = shown.reverseOf {
            let edited = try editSides(of: original, front: back, back: front)
            return (try store.card(id, withText: true), edited.changed)
        }
        return try editSides(of: id, front: front, back: back)
    }

    /// `edit` of a cloze card (R30): its front is the note's text (`text.md`, or `text.txt` for a
    /// front named `.txt`), its back the note's extra; logged as an `edit` of the card. The
    /// numbers the text gained get their cards in this request, as by hand at the next one.
    /// - Throws: `invalidAsset` for a text that is not Markdown or plain text, or has no deletion.
    private func editNote(of id: String, _ link: ClozeOf, front: Asset?, back: Asset?) throws(BoxError) -> (card: Card, changed: Bool) {
        func text(_ asset: Asset) throws(BoxError) -> String {
            _ = try Box.fileName(for: asset, side: .front)
            guard MediaType.isText(MediaType.of(fileName: asset.name)), let text = String(validating: asset.content, as: UTF8.self) else {
                throw .invalidAsset(name: asset.name, reason: "a note's text and extra are text (.md or .txt)")
            }
            return text
        }
        var newText: (name: String, text: String)?
        if let front {
            let written = try text(front)
            let numbers = ClozeText(parsing: written).numbers
            guard !numbers.isEmpty else {
                throw .invalidAsset(name: front.name, reason: "a note's text holds a deletion {{c1::…}}; delete the note to drop all of its cards")
            }
            // The reply shows the card edited through, which a text without its number would
            // leave damaged: refused before anything is written.
            guard numbers.contains(link.number) else {
                throw .invalidAsset(name: front.name, reason: "the text drops {{c\(link.number)::…}}, the deletion of '\(id)' itself; "
                                    + "edit the note through a card whose number it keeps, or by hand in '\(store.notePath(link.note))'")
            }
            let plain = MediaType.of(fileName: front.name) == "text/plain"
            newText = (Store.noteTextNames[plain ? 1 : 0], written)
        }
        let extra = try back.map { (asset) throws(BoxError) in try text(asset) }
        let moment = try begin()
        guard let level = store.level(of: id) else { throw .noSuchCard(id: id) }
        let changed = try store.writeNote(link.note, text: newText, extra: extra)
        if changed {
            try store.appendToLog([LogEntry(time: moment.now, event: .edit, id: id, from: level, to: level)], durable: true)
            for (card, _) in currentLinkIndex().cards(ofNote: link.note, store: store) {
                searchIndexNeedsReading(card)
                if lastShown?.id == card { lastShown = nil }
            }
            frontIndex = nil
            followNotes(moment)
        }
        return (try store.card(id, withText: true), changed)
    }

    /// `edit` of a card that is not a reverse card.
    private func editSides(of id: String, front: Asset?, back: Asset?) throws(BoxError) -> (card: Card, changed: Bool) {
        var requested: [(SideName, Asset, String)] = []
        if let front { requested.append((.front, front, try Box.fileName(for: front, side: .front))) }
        if let back { requested.append((.back, back, try Box.fileName(for: back, side: .back))) }
        let moment = try begin()
        guard let level = store.level(of: id) else { throw .noSuchCard(id: id) }
        // Read first: a damaged card is refused before anything is written.
        let card = try store.card(id, withText: false)
        var sides: [Store.NewSide] = []
        for (side, asset, name) in requested {
            let current = side == .front ? card.front.path : card.back.path
            if current.hasSuffix("/" + name),
               let bytes = try? store.assetBytes(id, side: side, limit: Box.maxAssetSize).data, bytes == asset.content {
                continue
            }
            sides.append(Store.NewSide(side: side, name: name, bytes: asset.content))
        }
        if sides.isEmpty { return (try store.card(id, withText: true), false) }
        try store.replaceSides(id, in: level, with: sides, journal: [
            LogEntry(time: moment.now, event: .edit, id: id, from: level, to: level),
        ])
        if sides.contains(where: { $0.side == .front }) { frontIndex = nil }
        searchIndexNeedsReading(id)
        if lastShown?.id == id { lastShown = nil }
        return (try store.card(id, withText: true), true)
    }

    /// Gives a card a new id (R20), in the level it is in, logged as a `rename` (R16). Its place
    /// in the open test, its passed or failed mark and its grades go with it; the log's earlier
    /// lines keep the old id, and the `rename` line links the two.
    /// An id that names no card but a note (R30) renames the note (`renameNote`), and answers
    /// with its first card.
    /// - Throws: `invalidCardId` for either id; `noSuchCard`; `cardExists` when the new id is
    ///   taken; `storeFailure` for a damaged card (R21) or a failed rename.
    public func rename(id: String, to newID: String) throws(BoxError) -> Card {
        try CardID.validate(id)
        try CardID.validate(newID)
        let moment = try begin()
        guard let level = store.level(of: id) else {
            if store.hasNote(id) { return try renameNote(id, to: newID, moment) }
            throw .noSuchCard(id: id)
        }
        let card = try store.card(id, withText: true)
        guard newID != id else { return card }
        if store.level(of: newID) != nil { throw .cardExists(id: newID) }
        // Its reverse cards name it by id (R28): their `reverse-of` is rewritten in the same
        // change, each logged as an `edit` of that reverse.
        var reverses: [(id: String, level: Level)] = []
        for reverse in self.reverses(of: id) {
            if let reverseLevel = store.level(of: reverse) { reverses.append((reverse, reverseLevel)) }
        }
        try store.renameCard(id, to: newID, in: level, reverses: reverses, journal: [
            LogEntry(time: moment.now, event: .rename, id: id, from: level, to: level, renamedTo: newID),
        ] + reverses.map { LogEntry(time: moment.now, event: .edit, id: $0.id, from: $0.level, to: $0.level) })
        for reverse in reverses {
            searchIndexNeedsReading(reverse.id)
            if lastShown?.id == reverse.id { lastShown = nil }
        }
        daily.rename(id, to: newID)
        frontIndex = frontIndex?.mapValues { $0 == id ? newID : $0 }
        if lastShown?.id == id { lastShown = nil }
        return try store.card(newID, withText: true)
    }
}
