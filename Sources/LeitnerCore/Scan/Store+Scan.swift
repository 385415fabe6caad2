import LeitnerSystem

/// Indexing: the full scan at open (names and `d_type` only), and taking in hand changes (R13)
/// from the inotify watch, with adoption of loose pairs (R14).
extension Store {
    /// Indexes every level directory from scratch.
    func scanAll() throws(BoxError) {
        // A directory's link count is 2 plus its subdirectories: size the index once, up front.
        var cards = 0
        for level in Level.allCases {
            // Only a size hint: a level that cannot be looked at counts none.
            if let st = try? openFD(level)?.status(), st.st_nlink > 2 { cards += Int(st.st_nlink) - 2 }
        }
        startIndex(minimumCapacity: cards)
        for level in Level.allCases { try scan(level) }
        // A card in two levels: serve the complete copy (R13, Syncthing's order).
        for id in Array(cardsWithCopies) {
            guard let levels = duplicateLevels(of: id) else { continue }
            let served = servedCopy(id, among: levels.sorted(), current: nil)
            if served != level(of: id) { setLevel(id, served) }
        }
    }

    /// Indexes one level directory. A card id already seen in an earlier level is noted in
    /// `copies`; `scanAll` serves one copy and reports the other (R13, R18: a card is in exactly
    /// one level).
    func scan(_ level: Level) throws(BoxError) {
        // A level whose directory is unusable holds no card until it is a directory again.
        guard let directory = openFD(level) else {
            noteLooseFiles([], in: level)
            return
        }
        var loose = Set<String>()
        var unusual: [DirectoryEntry] = []
        do {
            try FileSystem.forEachEntryName(directory) { name, kind in
                // The common case, a card directory with an ASCII id, is indexed right here from
                // the listing's bytes, with no string made.
                if kind == .directory, CardID.isValidASCII(name) {
                    indexScanned(name, in: level)
                } else if kind == .directory {
                    noteDirectory(String(decoding: name, as: UTF8.self), in: level)
                } else {
                    unusual.append(DirectoryEntry(name: String(decoding: name, as: UTF8.self), kind: kind))
                }
            }
        } catch {
            throw .failing(.list, path(of: level), error)
        }
        for entry in unusual {
            var kind = entry.kind
            if kind == .unknown, let st = try? FileSystem.status(entry.name, in: directory) { kind = st.kind }
            switch kind {
            case .directory:
                noteDirectory(entry.name, in: level)
            case .file:
                if !noteSyncArtifact(entry.name, in: level) { loose.insert(entry.name) }
            case .symlink:
                noteLink(entry.name, in: level)
            case .other, .unknown:
                report(StoreProblem(
                    kind: .strayEntry, path: path(of: entry.name, in: level),
                    reason: "neither a card directory nor a loose card file", advice: "remove it"))
            }
        }
        noteLooseFiles(loose, in: level)
    }

    /// R22: a link in a level directory is never a card nor a card half; it is reported.
    private func noteLink(_ name: String, in level: Level) {
        report(StoreProblem(
            kind: .outsideLink, path: path(of: name, in: level),
            reason: "a symbolic link; the daemon follows no link in a level directory",
            advice: "move the card directory itself into the store"))
    }

    /// A name a sync tool made (docs/sync.md): a temporary is passed over, since the tool renames
    /// it when it is whole; a conflict copy is reported. Either is never a card, a loose half or
    /// an id.
    /// - Returns: true when `name` is such a name.
    func noteSyncArtifact(_ name: String, in level: Level) -> Bool {
        guard let artifact = SyncArtifact(fileName: name) else { return false }
        if let original = artifact.original {
            let entryPath = path(of: name, in: level)
            report(StoreProblem(
                kind: .syncConflict, path: entryPath,
                reason: "a conflict copy of '\(original)' left by \(artifact.tool.rawValue)",
                advice: "compare it with '\(path(of: original, in: level))', keep what you want there and remove the copy"))
        }
        return true
    }

    /// Takes a directory found in a level into the index, or reports why it is not a card.
    private func noteDirectory(_ name: String, in level: Level) {
        if noteSyncArtifact(name, in: level) { return }
        if !CardID.isValid(name), let reason = CardID.problem(name) {
            let entryPath = path(of: name, in: level)
            report(StoreProblem(kind: .strayEntry, path: entryPath,
                                reason: "not a valid card id: \(reason)",
                                advice: "rename it to a valid id (letters, digits and marks of any script, . _ -)"))
        } else {
            // Already indexed elsewhere: `scanAll` chooses the copy to serve once every level is read.
            indexScanned(name, in: level)
        }
    }

    /// Takes in the changes made to the level directories since the last call: drains the watch
    /// and resolves each touched name against the directories. Adopts complete loose pairs.
    func refresh(now: Int64) throws(BoxError) -> [HandChange] {
        let events: [Inotify.Event]
        do { events = try drainWatch() } catch {
            throw .failing(.read, root, error, doing: "cannot read the change watch")
        }
        // A level replaced by something that is not a directory comes back once it is one again.
        var rescan = hasUnusableLevels && retryMissingLevels()
        if events.isEmpty && !rescan && cardsWithCopies.isEmpty { return [] }
        var touched: [String] = []
        var seen = Set<String>()
        var pairCandidates: [(Level, String)] = []
        for event in events {
            if isRootWatch(event.watch) {
                // A level directory itself removed, replaced or put back (or the echo of the box
                // making one again, which changes nothing).
                if let level = Level(name: event.name), !levelIsCurrent(level) {
                    reopenLevel(level)
                    rescan = true
                }
                continue
            }
            if event.kind != .overflow, level(watchedBy: event.watch) == nil {
                // A card directory's own watch, a view's: something in it changed (a side edited by hand).
                publishDirectoryEvent(watch: event.watch, entry: event.name)
                continue
            }
            switch event.kind {
            case .overflow:
                rescan = true
                publishLost()
            case .watchedDirectoryGone:
                if let level = self.level(watchedBy: event.watch) {
                    reopenLevel(level)
                    rescan = true
                }
            case .appeared, .disappeared:
                guard let level = self.level(watchedBy: event.watch) else { continue }
                let appeared = event.kind == .appeared
                if event.isDirectory {
                    // An event that agrees with the index is the echo of the daemon's own rename.
                    if appeared ? self.level(of: event.name) == level : self.level(of: event.name) != level,
                       !isStray(path(of: event.name, in: level)) { continue }
                    if seen.insert(event.name).inserted { touched.append(event.name) }
                } else if appeared {
                    // inotify does not tell a link from a file: look, as the scan at open does.
                    if let directory = openFD(level), let st = try? FileSystem.status(event.name, in: directory),
                       st.kind == .symlink {
                        noteLink(event.name, in: level)
                    } else if noteSyncArtifact(event.name, in: level) {
                        continue
                    } else if noteLooseFile(event.name, in: level) {
                        pairCandidates.append((level, event.name))
                    }
                } else {
                    forgetLooseFile(event.name, in: level)
                    withdrawReport(at: path(of: event.name, in: level))
                }
            }
        }
        var changes: [HandChange]
        if rescan {
            changes = try rescanAndCompare()
        } else {
            changes = []
            for name in touched { if let change = resolve(name) { changes.append(change) } }
            // A card's copies fill and empty with no event in the level directories: look again.
            for id in cardsWithCopies.sorted() where !seen.contains(id) {
                if let change = resolve(id) { changes.append(change) }
            }
        }
        for (level, name) in pairCandidates {
            if let id = try adoptLoosePair(containing: name, in: level, now: now) {
                changes.append(.adopted(id: id, level: level))
            }
        }
        return changes
    }

    /// Finds where `name` is now and updates the index; nil when nothing changed.
    func resolve(_ name: String) -> HandChange? {
        let old = level(of: name)
        for level in Level.allCases { withdrawReport(at: path(of: name, in: level)) }
        var levels: [Level] = []
        for level in Level.allCases {
            guard let directory = openFD(level), let st = try? FileSystem.status(name, in: directory) else { continue }
            if st.isDirectory, CardID.isValid(name), SyncArtifact(fileName: name) == nil {
                levels.append(level)
            } else if st.isDirectory {
                noteDirectory(name, in: level)
            }
        }
        noteCopies(of: name, in: levels.count > 1 ? Set(levels) : nil)
        let found = levels.count > 1 ? servedCopy(name, among: levels, current: old) : levels.first
        if old == found { return nil }
        setLevel(name, found)
        noteDamage(of: name, nil)
        switch (old, found) {
        case (nil, let to?): return .appeared(id: name, level: to)
        case (let from?, nil): return .disappeared(id: name, from: from)
        case (let from?, let to?): return .moved(id: name, from: from, to: to)
        case (nil, nil): return nil
        }
    }

    /// R13, Syncthing's order: of a card's directories in several levels, the one to serve
    /// (`CardCopy.served`); the others are reported as duplicates and never touched.
    func servedCopy(_ id: String, among levels: [Level], current: Level?) -> Level? {
        var found: [CardCopy] = []
        for level in levels {
            guard let directory = openFD(level), let st = try? FileSystem.status(id, in: directory) else { continue }
            let complete = if case .success = readSides(id, in: level, withText: false).sides { true } else { false }
            found.append(CardCopy(level: level, isComplete: complete,
                                  modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)))
        }
        let served = CardCopy.served(among: found, current: current)
        for copy in found where copy.level != served {
            let copyPath = path(of: id, in: copy.level)
            report(StoreProblem(
                kind: .duplicateCard, path: copyPath,
                reason: "card '\(id)' is also in level \(served.map(\.name) ?? "?"), the copy served meanwhile",
                advice: "keep one copy and remove the other (a sync tool moving the card removes this one by itself)"))
        }
        return served
    }

    /// After lost events: scans everything again and reports the differences as hand changes.
    private func rescanAndCompare() throws(BoxError) -> [HandChange] {
        let before = cardLevels
        try scanAll()
        publishLost()
        var changes: [HandChange] = []
        for (id, from) in before {
            switch level(of: id) {
            case nil: changes.append(.disappeared(id: id, from: from))
            case let to? where to != from: changes.append(.moved(id: id, from: from, to: to))
            default: break
            }
        }
        for (id, level) in cardLevels where before[id] == nil { changes.append(.appeared(id: id, level: level)) }
        // A rescan sees the cards in no particular order; sort so that the queue order is stable.
        return changes.sorted { $0.id < $1.id }
    }

    /// Adopts every complete loose pair found at open.
    func adoptAllLoosePairs(now: Int64) throws(BoxError) -> [HandChange] {
        var changes: [HandChange] = []
        for level in Level.allCases {
            for name in looseFiles(in: level).sorted() where looseFiles(in: level).contains(name) {
                if let id = try adoptLoosePair(containing: name, in: level, now: now) {
                    changes.append(.adopted(id: id, level: level))
                }
            }
        }
        return changes
    }
}
