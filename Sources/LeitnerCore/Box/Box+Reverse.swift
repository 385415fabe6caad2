/// `AddReverse`: a reverse card (R28) for a card already in the box.
extension Box {
    /// The id a card's reverse gets by default: `ID.rev`.
    /// - Throws: `invalidCardId` when that is no valid id (the card's id is too long for it).
    static func reverseID(of id: String) throws(BoxError) -> String {
        guard let reverse = Store.defaultReverseID(of: id) else {
            try CardID.validate(id + ".rev")
            throw .invalidCardId(id: id + ".rev", reason: "not a valid card id")
        }
        return reverse
    }

    /// Adds a reverse card of the card `id`: a directory `reverseID` (default `ID.rev`) holding
    /// `reverse-of`, in `level` (default the card's own level or place, beside it: a card waiting
    /// in `new/` gets a reverse that waits there too, R23), logged as an `add`. It starts with a
    /// copy of the card's tags (R25), its own from then on, or with `tags` when given (an import
    /// giving back an exported reverse its own); with `typeAnswer` its directory gets a
    /// `type-answer` file (R32). A card may have more than one reverse; a reverse of a reverse is
    /// refused, since it would show the card as it is.
    /// - Throws: `noSuchCard`; `reverseOfReverse` when `id` is a reverse card itself;
    ///   `storeFailure` when the card is damaged (R21); `cardExists`, `invalidCardId`,
    ///   `invalidLevel`.
    public func addReverse(of id: String, reverseID: String?, level: String?, tags: [String]? = nil,
                           typeAnswer: Bool = false) throws(BoxError) -> Card {
        try CardID.validate(id)
        if let reverseID { try CardID.validate(reverseID) }
        for tag in tags ?? [] { try CardTag.validate(tag) }
        let asked = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        let moment = try begin()
        guard let originalLevel = store.level(of: id) else { throw .noSuchCard(id: id) }
        let original = try store.card(id, withText: false)
        if let named = original.reverseOf {
            throw .reverseOfReverse(id: id, reverseOf: named)
        }
        let newID: String
        if let reverseID { newID = reverseID } else { newID = try Box.reverseID(of: id) }
        if store.level(of: newID) != nil { throw .cardExists(id: newID) }
        let target = asked ?? originalLevel
        let staged = try store.stageReverse(newID, of: id, level: target, tags: tags ?? original.tags,
                                            typeAnswer: typeAnswer, synced: true)
        try store.commitStagedCards([staged], journal: [LogEntry(time: moment.now, event: .add, id: newID, to: target)])
        if tracksMembership { daily.levelChanged(newID, to: target) }
        return try store.card(newID, withText: true)
    }
}

extension Box {
    /// The reverse cards of the card `original` (R28), sorted.
    func reverses(of original: String) -> [String] {
        currentLinkIndex().reverses(of: original, store: store)
    }

    /// The link index brought up to date with the store's changes, built when there is none yet.
    func currentLinkIndex() -> LinkIndex {
        let index: LinkIndex
        if var kept = linkIndex {
            // Taken out while updated: updated where it is kept, the dictionary would be copied.
            linkIndex = nil
            kept.update(store: store)
            index = kept
        } else {
            index = LinkIndex(store: store)
        }
        linkIndex = index
        return index
    }
}
