/// Pictures and sounds put beside a card's sides (R31): `leitnerctl add --media`, `import`.
extension Box {
    /// Writes `media` into card `id`'s directory in one journaled change (R17, R18), logged as
    /// an `edit` of the card. Each name must be one file name of a picture or a sound
    /// (`MediaName`) and not a side's (`front.*`, `back.*`); a name the directory already holds
    /// with other bytes, or given twice, becomes `NAME-2.EXT`, `NAME-3.EXT`…, and one holding the
    /// same bytes is left as it is.
    /// - Returns: the card, and the name each medium has in the directory, in order.
    /// - Throws: `invalidAsset` for a name refused (nothing is written); `noSuchCard`;
    ///   `invalidAsset` for a reverse or cloze card, whose sides are another directory's.
    public func addMedia(id: String, media: [Asset]) throws(BoxError) -> (card: Card, names: [String]) {
        try CardID.validate(id)
        for medium in media { try Box.checkMediumName(medium.name) }
        let moment = try begin()
        guard let level = store.level(of: id) else { throw .noSuchCard(id: id) }
        let card = try store.card(id, withText: false)
        if card.reverseOf != nil || card.clozeOf != nil {
            throw .invalidAsset(name: media.first?.name ?? "", reason: "'\(id)' shows another directory's sides: put media beside those")
        }
        let present = store.mediaBytes(id, in: level)
        var taken = Set(present.keys)
        var names: [String] = []
        var writing: [(name: String, bytes: [UInt8])] = []
        for medium in media {
            var name = medium.name
            var number = 1
            // The same bytes under the same name are the same medium: kept once.
            func same(_ name: String) -> Bool { (writing.first { $0.name == name }?.bytes ?? present[name]) == medium.content }
            while taken.contains(name), !same(name) {
                number += 1
                name = Box.numbered(medium.name, number)
            }
            names.append(name)
            if taken.contains(name) { continue }
            taken.insert(name)
            writing.append((name, medium.content))
        }
        if !writing.isEmpty {
            try store.replaceFiles(id, in: level, leaving: { _ in false }, writing: writing, journal: [
                LogEntry(time: moment.now, event: .edit, id: id, from: level, to: level),
            ])
            store.publishWritten(id)
            if lastShown?.id == id { lastShown = nil }
        }
        return (try store.card(id, withText: true), names)
    }

    /// `katze.png` numbered: `katze-2.png`.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard let ext = MediaType.fileExtension(name) else { return "\(name)-\(number)" }
        return "\(name.dropLast(ext.count + 1))-\(number).\(ext)"
    }
}
