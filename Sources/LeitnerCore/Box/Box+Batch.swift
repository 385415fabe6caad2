/// `AddMany`: many new cards in one request, one durable change (docs/store-format.md, "Batches").
extension Box {
    /// Adds a batch of cards, each as `add` would (R1, R20, the same checks), durably in one go:
    /// when it returns, every added card is on disk and in its level (R17). A card whose id, or
    /// (with `allowDuplicateFront` false) whose text front, is already in the box — or earlier in
    /// the batch — is reported present and not added, so that the same batch sent again adds
    /// nothing; a card `add` would refuse is reported refused with that error. The others go in.
    /// - Throws: `storeFailure` when the store cannot take the batch; nothing is added then (R16).
    ///
    /// With `withReverse`, each added card gets its reverse card `ID.rev` beside it (R28), in the
    /// same batch and the same level or place (`newPairTarget`), or the one its `reverseLevel`
    /// names; a card whose reverse's id is taken is refused with `cardExists`.
    public func addMany(_ cards: [NewCard], allowDuplicateFront: Bool, withReverse: Bool = false) throws(BoxError) -> BatchOutcome {
        let moment = try begin()
        var outcome = BatchOutcome()
        let fronts = allowDuplicateFront ? [:] : try frontTexts()
        // Fronts and ids of this batch's cards, which are not in the indexes until it is committed.
        var batchFronts: [String: String] = [:]
        var batchIDs = Set<String>()
        var staged: [Store.StagedCard] = []
        var stagedFronts: [String?] = []
        // Each medium's name → the first staged card holding it, its id and the medium's bytes.
        var stagedMedia: [String: (staged: String, id: String, bytes: [UInt8])] = [:]
        // R23: the cards without a level wait in `new/`, in the batch's order, but for those
        // today's remaining admissions take straight into level 1 once the day's test opened.
        var room = try admissionRoom(moment)
        var admitted = Set<String>()
        let batch = try store.makeBatchDirectory()
        defer { store.removeBatchDirectory(batch) }
        do {
            for (index, card) in cards.enumerated() {
                let frontFile: String, backFile: String, named: Level?, reverseNamed: Level?
                do {
                    frontFile = try Box.fileName(for: card.front, side: .front)
                    backFile = try Box.fileName(for: card.back, side: .back)
                    named = try card.level.map { (name) throws(BoxError) in try Box.level(named: name) }
                    reverseNamed = try card.reverseLevel.map { (name) throws(BoxError) in try Box.level(named: name) }
                    if let id = card.id { try CardID.validate(id) }
                    for tag in card.tags { try CardTag.validate(tag) }
                    try Box.validateMedia(card.media)
                } catch {
                    outcome.refused.append(.init(index: index, error: error))
                    continue
                }
                let frontText = MediaType.isText(MediaType.of(fileName: frontFile))
                    ? Box.normalized(String(decoding: card.front.content, as: UTF8.self)) : nil
                if !allowDuplicateFront, let text = frontText, let existing = fronts[text] ?? batchFronts[text] {
                    outcome.present.append(.init(index: index, id: existing))
                    continue
                }
                let id = card.id ?? makeID(from: frontText, reserved: batchIDs)
                if store.level(of: id) != nil || batchIDs.contains(id) {
                    outcome.present.append(.init(index: index, id: id))
                    continue
                }
                var reverseID: String?
                if withReverse {
                    do throws(BoxError) {
                        let reverse = try Box.reverseID(of: id)
                        if store.level(of: reverse) != nil || batchIDs.contains(reverse) { throw .cardExists(id: reverse) }
                        reverseID = reverse
                    } catch {
                        outcome.refused.append(.init(index: index, error: error))
                        continue
                    }
                }
                let (target, origin): (Level, LogOrigin?)
                if let named {
                    (target, origin) = (named, nil)
                } else if reverseID != nil && reverseNamed == nil {
                    // R28: the reverse goes beside its card, each taking an admission of its own.
                    (target, origin) = try newPairTarget(moment, room: &room)
                } else {
                    (target, origin) = try newCardTarget(moment, room: &room)
                }
                let reverseTarget = reverseNamed ?? target
                if origin == .admit {
                    admitted.insert(id)
                    if let reverseID, reverseNamed == nil { admitted.insert(reverseID) }
                }
                var files = [(frontFile, card.front.content), (backFile, card.back.content)] + Store.typeAnswerFiles(card.typeAnswer)
                if !card.tags.isEmpty { files.append((CardTag.fileName, Array(CardTag.fileText(card.tags).utf8))) }
                // A medium an earlier card of the batch staged with the same bytes (a picture
                // many notes show) is linked to that one; `==` of arrays sharing their storage,
                // as a client's decoded batch does, compares no bytes. One of a name an earlier
                // batch wrote is linked from the card holding it, if that file still has these
                // bytes (`mediaHolders`).
                var shared: [(name: String, bytes: [UInt8], from: String)] = []
                var held: [(name: String, bytes: [UInt8], card: String)] = []
                for medium in card.media {
                    if let first = stagedMedia[medium.name] {
                        if first.bytes == medium.content {
                            shared.append((medium.name, medium.content, first.staged))
                        } else {
                            files.append((medium.name, medium.content))
                        }
                    } else if let holder = mediaHolders[medium.name] {
                        held.append((medium.name, medium.content, holder))
                    } else {
                        files.append((medium.name, medium.content))
                    }
                }
                let stagedCard = try store.stageBatchCard(id, level: target, in: batch, files: files, shared: shared, held: held)
                for medium in card.media where stagedMedia[medium.name] == nil {
                    stagedMedia[medium.name] = (stagedCard.staged, id, medium.content)
                }
                staged.append(stagedCard)
                stagedFronts.append(frontText)
                batchIDs.insert(id)
                if let reverseID {
                    staged.append(try store.stageReverse(reverseID, of: id, level: reverseTarget, tags: card.tags, typeAnswer: card.typeAnswer,
                                                         synced: false, in: batch))
                    // No front of its own to find duplicates by.
                    stagedFronts.append(nil)
                    batchIDs.insert(reverseID)
                }
                if let text = frontText, !allowDuplicateFront { batchFronts[text] = id }
                outcome.added.append(.init(index: index, id: id, level: target, reverse: reverseID))
            }
            try store.commitBatch(staged, journal: staged.map {
                LogEntry(time: moment.now, event: .add, id: $0.id, to: $0.level, origin: admitted.contains($0.id) ? .admit : nil)
            })
        } catch {
            store.discardStaged(staged)
            throw error
        }
        if mediaHolders.count + stagedMedia.count > Box.mediaHoldersLimit { mediaHolders.removeAll() }
        for (name, first) in stagedMedia { mediaHolders[name] = first.id }
        for (card, front) in zip(staged, stagedFronts) {
            // The first card with a front stays the one named, as `frontTexts` builds it.
            if let text = front, frontIndex != nil, frontIndex![text] == nil { frontIndex![text] = card.id }
            if tracksMembership { daily.levelChanged(card.id, to: card.level) }
        }
        return outcome
    }
}
