import LeitnerSystem

/// The hand changes made while no daemon ran (R13, R16), found at open by comparing the cards
/// found with where this device's log last put them (`LoggedLevels`).
extension Store {
    /// Every card whose level differs from the one this device's log last gave it — moved, made
    /// or removed by hand while no daemon ran — as the change that takes it from there to where
    /// it is. Where the log left each card is `LoggedLevels` (written at the last stop) with the
    /// lines logged since; only the levels whose directory changed since are compared. Without
    /// that file (a store older than it, copied without its local state, or a log replaced since)
    /// the one this device published beside its log is taken when it holds
    /// (`PublishedHistory.loggedLevels`: where the lines alone left each card, no level's stamp,
    /// so every level is compared), and the lines after it read; without either, the whole log
    /// is read, once. A store with an empty log has no history to differ from: its cards are
    /// where they are.
    /// - Parameter publishEvery: `BoxOptions.publishEvery`: with the published file taken and the
    ///   log less than this past it, nothing is published at this open, and the file is compared
    ///   with the cards where its ids lie (`changesSincePublished`), no index made of it.
    /// - Parameter alongside: asked once when the log is to be read from its start: what else
    ///   takes each of its entries (with the offset after its line) in the same reading, nil for
    ///   nothing — the box's places' ledger and week's counts, which a store without its local
    ///   state would otherwise read the whole log for again at the first request.
    /// - Returns: the changes, by id; `readWholeLog` when there was no `LoggedLevels` to go by,
    ///   local or published; `placed`, without the local file, where the log's lines alone leave
    ///   every card and the end of the last line read (what this device publishes).
    func changesWhileClosed(publishEvery: Int, alongside: () -> ((LogLine.Fields, Int) -> Void)? = { nil })
        throws(BoxError) -> (changes: [HandChange], readWholeLog: Bool, placed: (index: CardIndex, offset: Int)?) {
        func holds(_ kept: LoggedLevels) -> Bool {
            kept.logOffset <= log.size
                && (kept.logOffset == 0 || PeerReadMarks.withLog(device, in: devicesFD, { PeerReadMarks.check($0, before: kept.logOffset) }) == kept.logCheck)
        }
        var saved = LoggedLevels.load(in: stateFD).flatMap { holds($0) ? $0 : nil }
        let local = saved != nil
        if !local, let published = publishedLoggedLevels() { saved = published }
        guard saved != nil || log.size > 0 else { return ([], false, nil) }
        let stamps = stampsAtOpen
        // The published file keeps no level's stamp (another machine's directories have others):
        // every level is compared with it, as with no file.
        let changed = Set(Level.allCases.filter { level in
            guard local, let saved, level.rawValue <= stamps.count, let stamp = saved.stamp(of: level) else { return true }
            return stamp != stamps[level.rawValue - 1]
        })
        let from = saved?.logOffset ?? 0
        guard !changed.isEmpty || from < log.size else { return ([], false, nil) }
        // The published file, with nothing to publish at this open: compared as it lies.
        if !local, let saved, log.size - from < max(publishEvery, 1), let changes = try changesSincePublished(saved) {
            return (changes, false, nil)
        }
        // Where the log left the cards of the changed levels: the file's, then the lines since.
        var logged = CardIndex(minimumCapacity: local ? 0 : saved?.cardCount ?? 0)
        saved?.add(changed, to: &logged)
        let other = from == 0 ? alongside() : nil
        var readTo = from
        try log.forEachLine(from: from) { line, end in
            other?(line, end)
            logged.place(by: line)
            readTo = end
        }
        let found = cardLevels
        var changes: [HandChange] = []
        // The cards now in a changed level that the log left elsewhere, or nowhere. One the file
        // has in an unchanged level is still there: its copy here came beside it.
        found.forEachEntryWithBytes { _, level, bytes in
            guard changed.contains(level), logged.level(ofBytes: bytes) != level else { return }
            let id = String(decoding: bytes, as: UTF8.self)
            let was = logged.level(ofBytes: bytes) ?? duplicateLevels(of: id)?.first { !changed.contains($0) }
            guard was != level else { return }
            changes.append(was.map { .moved(id: id, from: $0, to: level) } ?? .appeared(id: id, level: level))
        }
        // The cards the log left in a level that are gone, or in an unchanged level.
        logged.forEachEntryWithBytes { _, was, bytes in
            let now = found.level(ofBytes: bytes)
            guard now != was, !(now.map(changed.contains) ?? false) else { return }
            let id = String(decoding: bytes, as: UTF8.self)
            changes.append(now.map { .moved(id: id, from: was, to: $0) } ?? .disappeared(id: id, from: was))
        }
        return (changes.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }, saved == nil, local ? nil : (logged, readTo))
    }

    /// `changesWhileClosed` from the published file `published` (no level's stamp: every level is
    /// compared) without making an index of it: each card it holds is looked up in the store's
    /// index where its id lies in the file, and the lines logged after it are put in two small
    /// indexes of their own (the cards they leave in a level, those they delete) that stand
    /// before the file for the cards they name. The changes are those the index of the file and
    /// the lines would give, found with a look-up a card rather than an insertion and two
    /// look-ups (docs/performance.md, "A store copied, then opened"). Nil when the file holds an
    /// id twice, which no file this device wrote does: the index then decides, as before.
    private func changesSincePublished(_ published: LoggedLevels) throws(BoxError) -> [HandChange]? {
        var placedAfter = CardIndex(), deletedAfter = CardIndex(), disappeared = CardIndex()
        try log.forEachLine(from: published.logOffset) { line, _ in
            CardIndex.forEachPlacement(by: line) { bytes, placement in
                switch placement {
                case .level(let level):
                    placedAfter.updateValue(level, forBytes: bytes)
                    deletedAfter.removeValue(forBytes: bytes)
                case .deleted:
                    placedAfter.removeValue(forBytes: bytes)
                    deletedAfter.updateValue(.one, forBytes: bytes)
                }
            }
        }
        let found = cardLevels
        // The store's cards the log leaves somewhere or deleted, by entry number.
        var seen = [Bool](repeating: false, count: found.entryCount)
        var twice = false
        var changes: [HandChange] = []
        // A card the log leaves in `was` (nil: deleted), against where it is.
        func compare(_ bytes: UnsafeBufferPointer<UInt8>, was: Level?) {
            guard let number = found.entryNumber(ofBytes: bytes), let now = found.level(ofEntry: number) else {
                guard let was else { return }
                if disappeared.updateValue(was, forBytes: bytes) != nil { twice = true }
                changes.append(.disappeared(id: String(decoding: bytes, as: UTF8.self), from: was))
                return
            }
            if seen[Int(number)] { twice = true }
            seen[Int(number)] = true
            guard now != was else { return }
            let id = String(decoding: bytes, as: UTF8.self)
            changes.append(was.map { .moved(id: id, from: $0, to: now) } ?? .appeared(id: id, level: now))
        }
        published.forEachCard { level, bytes in
            // The index keeps no id longer than R20's limit (`place(by:)`), nor does a file from it.
            guard bytes.count <= CardID.maxLength, placedAfter.level(ofBytes: bytes) == nil,
                  deletedAfter.level(ofBytes: bytes) == nil else { return }
            compare(bytes, was: level)
        }
        placedAfter.forEachEntryWithBytes { _, level, bytes in compare(bytes, was: level) }
        deletedAfter.forEachEntryWithBytes { _, _, bytes in compare(bytes, was: nil) }
        guard !twice else { return nil }
        // The cards the log leaves nowhere: come by hand.
        found.forEachEntryWithBytes { number, level, bytes in
            guard !seen[Int(number)] else { return }
            changes.append(.appeared(id: String(decoding: bytes, as: UTF8.self), level: level))
        }
        return changes.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// Where this device's log alone leaves each card, as published beside it, when its offset
    /// is within the log and the bytes before it are the log's (`PublishedHistory`); else nil.
    func publishedLoggedLevels() -> LoggedLevels? {
        guard let bytes = PublishedHistory.read(PublishedHistory.loggedLevels, of: device, in: devicesFD, limit: 256 << 20),
              let kept = LoggedLevels.decoded(bytes), kept.logOffset > 0, kept.logOffset <= log.size,
              PeerReadMarks.withLog(device, in: devicesFD, { PeerReadMarks.check($0, before: kept.logOffset) }) == kept.logCheck
        else { return nil }
        log.publishedOffsets[PublishedHistory.loggedLevels] = kept.logOffset
        return kept
    }

    /// Publishes where this device's log alone leaves each card (`PublishedHistory`) when the
    /// log is `every` bytes or more past the published file: `placed` (the open read the log to
    /// its end, from the published file it looked for, `changesWhileClosed`), else the published
    /// file with the lines after it, or the whole log when there is none — once, at a stop
    /// (`Box.close`). A log replaced under the box is left for the next open.
    func publishLoggedLevels(placed: (index: CardIndex, offset: Int)?, every: Int) {
        let size = log.size
        guard size > 0, !log.isReplaced() else { return }
        if placed == nil, log.publishedOffsets[PublishedHistory.loggedLevels] == nil { _ = publishedLoggedLevels() }
        let publishedAt = log.publishedOffsets[PublishedHistory.loggedLevels] ?? 0
        guard size - publishedAt >= max(every, 1) else { return }
        var index: CardIndex
        var offset = 0
        if let placed {
            (index, offset) = placed
        } else {
            index = CardIndex()
            let published = publishedAt > 0 ? publishedLoggedLevels() : nil
            published?.add(Set(Level.allCases), to: &index)
            offset = published?.logOffset ?? 0
            do {
                try log.forEachLine(from: offset) { line, end in
                    index.place(by: line)
                    offset = end
                }
            } catch {
                return
            }
        }
        guard offset > publishedAt,
              let check = PeerReadMarks.withLog(device, in: devicesFD, { PeerReadMarks.check($0, before: offset) }) else { return }
        if PublishedHistory.write(LoggedLevels.encode(index, also: [:], logOffset: offset, logCheck: check, stamps: nil),
                                  as: PublishedHistory.loggedLevels, in: deviceFD) {
            log.publishedOffsets[PublishedHistory.loggedLevels] = offset
        }
    }

    /// Writes `LoggedLevels` for the cards as the index has them — where the log put them, once
    /// every change is taken in — with `also` (cards in transit, where the log last put them). At
    /// a stop (`stamped`) each level's stamp is kept, unless a change is waiting in the watch:
    /// then the index is behind the directories, and no stamp vouches for it. At open none is
    /// (the first request takes in what the watch saw meanwhile). A file that cannot be written
    /// costs the next open a longer read, never a change.
    func saveLoggedLevels(also: [String: Level], stamped: Bool) {
        var stamps = stamped ? levelStampList() : nil
        if stamped, (try? drainWatch())?.isEmpty != true { stamps = nil }
        let offset = log.size
        let check = offset == 0 ? 0 : PeerReadMarks.withLog(device, in: devicesFD) { PeerReadMarks.check($0, before: offset) }
        guard let check else { return }
        let bytes = LoggedLevels.encode(cardLevels, also: also, logOffset: offset, logCheck: check, stamps: stamps)
        try? FileSystem.writeAtomically(bytes, to: LoggedLevels.fileName, in: stateFD)
    }
}

extension CardIndex {
    /// Puts the cards `line` names (its id, and a rename's new id) where it leaves them
    /// (`SettlePlacement`), each id looked up where it lies in the line: the open of a store
    /// without `logged-levels` reads a year's log, a million lines, this way.
    mutating func place(by line: LogLine.Fields) {
        CardIndex.forEachPlacement(by: line) { bytes, placement in
            switch placement {
            case .level(let level): updateValue(level, forBytes: bytes)
            case .deleted: removeValue(forBytes: bytes)
            }
        }
    }

    /// Calls `body` with the bytes of each id `line` names (its id, and a rename's new id) and
    /// where the line leaves that card (`SettlePlacement`), the bytes as the index keys them
    /// (`LogLine.withIDBytes`) and valid during the call only.
    static func forEachPlacement(by line: LogLine.Fields, _ body: (UnsafeBufferPointer<UInt8>, SettlePlacement) -> Void) {
        func place(_ id: ArraySlice<UInt8>, _ placement: SettlePlacement?) {
            guard let placement else { return }
            LogLine.withIDBytes(id) { bytes -> Void in
                // No card has an id longer than R20's limit, and the index keeps no longer one: a
                // hand-written or damaged line naming one places nothing.
                guard bytes.count <= CardID.maxLength else { return }
                body(bytes, placement)
            }
        }
        if let id = line.id {
            let isRenamedTo = line.renamedTo.map { LogLine.sameID($0, id) } ?? false
            place(id, SettlePlacement(line.event, from: line.from, to: line.to, isID: true, isRenamedTo: isRenamedTo))
        }
        if let renamedTo = line.renamedTo {
            let isID = line.id.map { LogLine.sameID($0, renamedTo) } ?? false
            place(renamedTo, SettlePlacement(line.event, from: line.from, to: line.to, isID: isID, isRenamedTo: true))
        }
    }
}
