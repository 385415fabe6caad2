import LeitnerSystem

/// Settling the cards a sync left in two levels, or deleted on one device and moved on another
/// (docs/sync.md, "Settling a card after a sync"), once the store has been quiet for
/// `BoxOptions.settleAfter`. The decision is `SettlePlanner`'s, from every device's log: each
/// device reaches the same one by itself.
extension Box {
    /// What a request does first (`begin`: hand changes, skipped days, settling), with no request:
    /// the daemon calls it now and then, so that a sync tool's work is taken in and settled while
    /// nobody asks.
    public func tick() throws(BoxError) {
        _ = try begin()
    }

    /// How often the daemon calls `tick`: half of `settleAfter`, from half a second to a minute.
    public var tickInterval: Int64 { min(60_000, max(500, options.settleAfter / 2)) }

    /// Looks at the cards that may need settling — those in two levels, those that came or moved
    /// by hand, those another device's log names — when the store has been quiet long enough,
    /// and settles those the logs decide. Done before every request; a pass that changes nothing
    /// is not repeated until something changes.
    func settle(_ moment: Moment) throws(BoxError) {
        // A store no other machine has written to was never synced (a browser's log is this
        // daemon's own doing, R35): a card in two levels there was copied by hand, and stays
        // reported as a duplicate (R13).
        guard store.hasMachinePeers else { return }
        try notePeerChanges()
        let realNow = RealTime.nanoseconds
        if let notBefore = sync.quietNotBefore, realNow < notBefore { return }
        sync.quietNotBefore = nil
        var candidates = sync.settlePending.filter { !store.copyLevels(of: $0).isEmpty }
        candidates.formUnion(store.cardsWithCopies)
        sync.settlePending = candidates
        guard !candidates.isEmpty else {
            // A read of the logs for cards settled meanwhile (by a request's move) is not needed.
            sync.settleRead?.stop()
            sync.settleRead = nil
            saveReadMarks()
            return
        }
        let lastChange = store.lastChange(of: candidates)
        guard realNow - lastChange >= options.settleAfter * 1_000_000 else {
            sync.quietNotBefore = lastChange + options.settleAfter * 1_000_000
            return
        }
        // Nothing changed since a pass that left every candidate waiting: do not read the logs again.
        if let last = sync.lastSettlePass, last.change == lastChange, last.candidates == candidates { return }
        guard let events = try passEvents(for: candidates) else { return }
        var waiting = Set<String>()
        for id in candidates.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let copies = store.copyLevels(of: id)
            // A folder holding a part of the card beside another is content, not a place: its
            // sides are merged into the copy kept (docs/sync.md, "A store a sync tool is changing").
            let partial: Set<Level> = copies.count > 1 ? copies.filter { store.isPartial(id, in: $0) } : []
            let whole = copies.subtracting(partial)
            let decision = SettlePlanner.decide(id: id, copies: copies, partial: partial, events: events[id] ?? [])
            if case .keep = decision {} else if case .wait = decision {} else if let into = whole.first, whole.count == 1 {
                for level in partial.sorted() { try mergePartial(id, from: level, into: into, now: moment.now) }
            }
            switch decision {
            case .nothing:
                continue
            case .wait:
                waiting.insert(id)
            case .keep(let kept):
                for level in copies.sorted() where level != kept {
                    if partial.contains(level) {
                        try mergePartial(id, from: level, into: kept, now: moment.now)
                        continue
                    }
                    if try store.mergeTags(id, from: level, into: kept) { searchIndexNeedsReading(id) }
                    let same = try sameContent(id, level, kept)
                    if let change = try store.setAside(id, in: level, keep: !same) {
                        try apply(change, now: moment.now, log: true, origin: .sync)
                    }
                }
            case .move(let level):
                guard let from = whole.first else { continue }
                try store.moveCard(id, from: from, to: level,
                                   journal: [LogEntry(time: moment.now, event: .move, id: id, from: from, to: level, origin: .sync)])
                if lastShown?.id == id { lastShown = nil }
                if tracksMembership { daily.levelChanged(id, to: !store.isDamaged(id) ? level : nil) }
            case .remove:
                guard let level = whole.first else { continue }
                // A side edited after the delete (by hand, or an edit whose line has not arrived)
                // is not thrown away: the card stays, reported as a duplicate if it is one.
                let deleted = (events[id] ?? []).filter { $0.entry.event == .delete || $0.entry.renamedTo != nil }
                    .map(\.entry.time).max() ?? 0
                if let newest = store.newestFile(of: id, in: level), newest > deleted + 1000 { continue }
                try store.removeCard(id, from: level, journal: [LogEntry(time: moment.now, event: .delete, id: id, from: level,
                                                                         origin: .sync)])
                if lastShown?.id == id { lastShown = nil }
                frontIndex = nil
                if tracksMembership { daily.levelChanged(id, to: nil) }
            }
        }
        sync.settlePending = waiting
        sync.lastSettlePass = waiting.isEmpty ? nil : (store.lastChange(of: waiting), waiting)
        if waiting.isEmpty { saveReadMarks() }
    }

    /// Keeps how far the other devices' logs have been looked through (`PeerReadMarks`), once
    /// every card they named is settled or needs nothing; written only when it moved. A failure
    /// to write costs a reading of the logs after the next start, and is not the request's.
    private func saveReadMarks() {
        guard sync.peerScanOffsets != sync.savedMarks.marks.mapValues(\.offset) else { return }
        var marks = PeerReadMarks()
        for (name, offset) in sync.peerScanOffsets where offset > 0 {
            if let check = PeerReadMarks.withLog(name, in: store.devicesFD, { PeerReadMarks.check($0, before: offset) }) {
                marks.set(name, PeerReadMarks.Mark(offset: offset, check: check))
            }
        }
        // Saved or not, these are the marks asked for: not tried again until the offsets move.
        try? marks.save(in: store.stateFD)
        sync.savedMarks = marks
    }

    /// Moves the served copy of card `id` to level `to` for a request (a grade, a move, an undo,
    /// a suspension). When `to` holds the card's other copy — a sync's delivery not settled yet,
    /// or a copy made by hand — the request's own event is the newest of all, so that copy is
    /// settled first as a losing copy is: removed when it holds the same files as the card, else
    /// kept under `.leitner/conflicts/`; a copy holding only a part of the card (a delivery still
    /// being written) is merged into the card as settling merges it (docs/sync.md). Without that
    /// the rename would fail with "File exists" for a card that is only being synced.
    func moveServedCard(_ id: String, from: Level, to: Level, journal: [LogEntry]) throws(BoxError) {
        try makeRoom(for: [id], in: to, servedFrom: from)
        try store.moveCard(id, from: from, to: to, journal: journal)
    }

    /// Sets aside the copies in `level` of the cards `ids`, whose served copy is in `servedFrom`
    /// and is about to move there (`moveServedCard`).
    func makeRoom(for ids: [String], in level: Level, servedFrom: Level) throws(BoxError) {
        for id in ids where store.duplicateLevels(of: id)?.contains(level) == true && servedFrom != level {
            if store.isPartial(id, in: level) {
                try mergePartial(id, from: level, into: servedFrom, now: options.clock.now())
                continue
            }
            if try store.mergeTags(id, from: level, into: servedFrom) { searchIndexNeedsReading(id) }
            let same = try sameContent(id, level, servedFrom)
            if let change = try store.setAside(id, in: level, keep: !same) {
                try apply(change, now: options.clock.now(), log: true, origin: .sync)
            }
        }
    }

    /// Merges the partial copy of `id` in `level` into the copy kept (`Store.mergePartial`).
    private func mergePartial(_ id: String, from level: Level, into kept: Level, now: Int64) throws(BoxError) {
        if let change = try store.mergePartial(id, from: level, into: kept) {
            try apply(change, now: now, log: true, origin: .sync)
        }
        if lastShown?.id == id { lastShown = nil }
        searchIndexNeedsReading(id)
    }

    /// True when the copies of `id` in two levels hold the same files.
    private func sameContent(_ id: String, _ first: Level, _ second: Level) throws(BoxError) -> Bool {
        do {
            let one = try FileDescriptor.openDirectory(id, relativeTo: try store.fd(first))
            defer { one.close() }
            let other = try FileDescriptor.openDirectory(id, relativeTo: try store.fd(second))
            defer { other.close() }
            return try CardDirectoryComparison.sameContent(one, other)
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.read, store.path(of: id, in: first), error, doing: "cannot compare with '\(store.path(of: id, in: second))'")
        }
    }

    /// Every device's log lines about `ids`, by card, each with its device and offset.
    func settleEvents(for ids: Set<String>) throws(BoxError) -> [String: [DeviceEvent]] {
        try SettleRead.take(try logReaders(), ids)
    }

    /// `settleEvents` for a settling pass. With `BoxOptions.settlesApartFrom`, logs of that many
    /// bytes or more are read on a thread of their own (`SettleRead`), and the lines found are
    /// caught up here with those appended since: nil while that read is under way — one is
    /// begun when none covers `ids` — and the cards stay as they are until a later request or
    /// tick finds it done.
    private func passEvents(for ids: Set<String>) throws(BoxError) -> [String: [DeviceEvent]]? {
        guard let apartFrom = options.settlesApartFrom else { return try settleEvents(for: ids) }
        if let read = sync.settleRead, ids.isSubset(of: read.ids) {
            let found: [String: [DeviceEvent]]?
            do throws(BoxError) {
                found = try read.events()
            } catch {
                sync.settleRead = nil
                throw error
            }
            guard let found else { return nil }
            sync.settleRead = nil
            if let events = try caughtUp(read, found) { return events }
        }
        sync.settleRead?.stop()
        sync.settleRead = nil
        let readers = try logReaders()
        guard readers.reduce(0, { $0 + $1.reader.end }) >= apartFrom else { return try SettleRead.take(readers, ids) }
        let checks = readers.map { log in
            PeerReadMarks.withLog(log.device, in: store.devicesFD) { PeerReadMarks.check($0, before: log.reader.end) }
        }
        sync.settleRead = SettleRead(ids: ids, readers: readers, checks: checks)
        return nil
    }

    /// A reader of every device's log as it ends now, this device's first.
    func logReaders() throws(BoxError) -> [(device: String, reader: ReviewLogReader)] {
        var readers = [(device: store.device, reader: try store.log.reader())]
        for name in store.peerNames() {
            if let reader = try peerLogReader(name) { readers.append((name, reader)) }
        }
        return readers
    }

    /// The lines `read` found, with those appended to each log since it was made; nil when a
    /// device's log is no longer the one it read (replaced by another history, or cut short), or
    /// a device's log came or went: the lines are then read again.
    private func caughtUp(_ read: SettleRead, _ found: [String: [DeviceEvent]]) throws(BoxError) -> [String: [DeviceEvent]]? {
        var events = found
        let peers = Set(store.peerNames())
        for log in read.logs where log.device != store.device && !peers.contains(log.device) { return nil }
        for name in peers where !read.logs.contains(where: { $0.device == name }) {
            if try peerLogReader(name) != nil { return nil }
        }
        for log in read.logs {
            let now = PeerReadMarks.withLog(log.device, in: store.devicesFD) { PeerReadMarks.check($0, before: log.end) }
            guard now == log.check else { return nil }
            let reader = log.device == store.device ? try store.log.reader(from: log.end) : try peerLogReader(log.device, from: log.end)
            guard let reader, reader.end >= log.end else { return nil }
            while try SettleRead.take(log.device, reader, read.ids, into: &events) > 0 {}
        }
        return events
    }

    /// Where the first look since the start at `name`'s log begins: its mark on disk when the log
    /// still holds what it was made after (`PeerReadMarks`), else its start.
    private func savedMark(of name: String) -> Int {
        guard sync.savedMarks.marks[name] != nil else { return 0 }
        return PeerReadMarks.withLog(name, in: store.devicesFD) { sync.savedMarks.offset(of: name, log: $0) } ?? 0
    }

    /// Reads the lines other devices appended to their logs since the last look, and notes the
    /// cards they name that are here: candidates for settling. With `BoxOptions.looksApartFrom`,
    /// that many bytes or more of a log still to read are read on a thread of their own
    /// (`PeerLook`): the cards they name are noted by the request or tick that finds it done,
    /// which then reads the lines appended since.
    private func notePeerChanges() throws(BoxError) {
        let names = store.peerNames()
        for name in names {
            var offset = sync.peerScanOffsets[name] ?? savedMark(of: name)
            if let look = sync.peerLooks[name] {
                let found: Set<String>?
                do throws(BoxError) {
                    found = try look.ids()
                } catch {
                    sync.peerLooks[name] = nil
                    throw error
                }
                // Under way: its lines are not noted yet, nor read past.
                guard let found else { continue }
                sync.peerLooks[name] = nil
                if let size = store.peerLogSize(name), size >= look.end,
                   PeerReadMarks.withLog(name, in: store.devicesFD, { PeerReadMarks.check($0, before: look.end) }) == look.check {
                    for id in found where !store.copyLevels(of: id).isEmpty { sync.settlePending.insert(id) }
                    offset = look.end
                } else {
                    // Replaced by another history, or cut short, meanwhile: looked through again.
                    offset = 0
                }
            }
            if let size = store.peerLogSize(name), offset > size { offset = 0 }
            guard let reader = try peerLogReader(name, from: offset) else { continue }
            if let apart = options.looksApartFrom, reader.end - offset >= max(apart, 1) {
                let check = PeerReadMarks.withLog(name, in: store.devicesFD) { PeerReadMarks.check($0, before: reader.end) }
                sync.peerLooks[name] = PeerLook(reader: reader, from: offset, check: check)
                sync.peerScanOffsets[name] = offset
                continue
            }
            while try reader.next(upTo: 4096, { entry, end in
                offset = end
                for id in [entry.id, entry.renamedTo].compactMap({ $0 }) where !store.copyLevels(of: id).isEmpty {
                    sync.settlePending.insert(id)
                }
            }) > 0 {}
            sync.peerScanOffsets[name] = offset
        }
        for name in sync.peerScanOffsets.keys where !names.contains(name) { sync.peerScanOffsets[name] = nil }
        for (name, look) in sync.peerLooks where !names.contains(name) {
            look.stop()
            sync.peerLooks[name] = nil
        }
    }
}
