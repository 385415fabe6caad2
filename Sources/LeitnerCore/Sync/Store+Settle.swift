import LeitnerSystem

/// What settling a card a sync left in two levels does on disk (docs/sync.md, "Settling a card
/// after a sync"): the copy that lost is set aside, and the index looks again.
extension Store {
    static let conflictsDirectoryName = "conflicts"

    /// `.leitner/conflicts/`, for messages.
    var conflictsPath: String { sharedPath + "/" + Store.conflictsDirectoryName }

    /// Takes the copy of `id` in `level` out of the level: into the trash, removed, when it is
    /// the same as the copy kept; else under `.leitner/conflicts/ID.LEVEL` (a number added when
    /// that name is taken), kept for the person and reported. One rename, synced with both
    /// directories: no log line goes with it, since the card stays where it is kept.
    /// - Returns: the change of the level served, if the copy set aside was the one served.
    func setAside(_ id: String, in level: Level, keep: Bool) throws(BoxError) -> HandChange? {
        let source = try fd(level)
        let copyPath = path(of: id, in: level)
        if keep {
            let conflicts = try Store.subdirectory(Store.conflictsDirectoryName, of: sharedFD, path: conflictsPath)
            defer { conflicts.close() }
            var name = "\(id).\(level.name)"
            var number = 2
            while FileSystem.exists(name, in: conflicts) {
                name = "\(id).\(level.name).\(number)"
                number += 1
            }
            try Store.failing(.rename, copyPath, doing: "cannot move to '\(conflictsPath)/\(name)'") { () throws(Errno) in
                try FileSystem.rename(id, in: source, to: name, in: conflicts)
                try conflicts.sync()
                try source.sync()
                try sharedFD.sync()
            }
        } else {
            let trashed = "\(id).settled.\(CurrentProcess.id).\(level.name)"
            try Store.failing(.remove, copyPath) { () throws(Errno) in
                try FileSystem.rename(id, in: source, to: trashed, in: trashFD)
                try source.sync()
                try trashFD.sync()
            }
            // The copy is out of the store; a crash before this leaves it in the trash, which the
            // next open empties.
            try? FileSystem.removeTree(trashed, in: trashFD)
        }
        withdrawReport(at: copyPath)
        return resolve(id)
    }

    /// The copies of `id`: the levels whose directory holds a directory of that name.
    func copyLevels(of id: String) -> Set<Level> {
        if let levels = duplicateLevels(of: id) { return levels }
        return level(of: id).map { [$0] } ?? []
    }

    /// The latest change time (ns since the epoch) of what tells whether a sync is still under way:
    /// the level directories, the devices' directories and files, and the directories of the
    /// cards `ids`. Change times, not modification times: a sync tool sets a file's modification
    /// time to its source's, but the kernel sets the change time of whatever it touches.
    func lastChange(of ids: some Sequence<String>) -> Int64 {
        // What cannot be looked at (a name gone meanwhile, a directory closed) tells nothing of
        // a sync under way and is left out: the others' times still say whether it is quiet.
        var latest: Int64 = 0
        func take(_ changed: Int64?) { latest = max(latest, changed ?? 0) }
        for level in Level.allCases {
            take(try? openFD(level)?.status().changeNanoseconds)
        }
        take(try? devicesFD.status().changeNanoseconds)
        for name in peerNames() {
            guard let directory = try? FileDescriptor.openDirectory(name, relativeTo: devicesFD) else { continue }
            defer { directory.close() }
            take(try? directory.status().changeNanoseconds)
            for file in [ReviewLog.fileName, DayRecordFile.name] {
                take(try? FileSystem.status(file, in: directory).changeNanoseconds)
            }
        }
        for id in ids {
            for level in copyLevels(of: id) {
                guard let fd = openFD(level) else { continue }
                take(try? FileSystem.status(id, in: fd).changeNanoseconds)
            }
        }
        return latest
    }

    /// The latest change time (ns since the epoch) of `notes/` and of the note `note`'s directory:
    /// what a sync tool delivering a note, or a rename of one, changes.
    func lastNoteChange(_ note: String) -> Int64 {
        var latest: Int64 = 0
        for path in [Store.notesDirectoryName, Store.notesDirectoryName + "/" + note] {
            latest = max(latest, (try? FileSystem.status(path, in: rootFD).changeNanoseconds) ?? 0)
        }
        return latest
    }

    /// The latest modification time (ms since the epoch) of the files in the copy of `id` in
    /// `level`; nil when it cannot be read.
    func newestFile(of id: String, in level: Level) -> Int64? {
        guard let levelFD = openFD(level), let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelFD) else { return nil }
        defer { directory.close() }
        var latest: Int64 = 0
        guard let entries = try? FileSystem.list(directory) else { return nil }
        for entry in entries {
            guard let st = try? FileSystem.status(entry.name, in: directory) else { continue }
            latest = max(latest, Int64(st.st_mtim.tv_sec) * 1000 + Int64(st.st_mtim.tv_nsec) / 1_000_000)
        }
        return latest
    }

    /// The problems `doctor` reports about `.leitner/`: copies set aside in `conflicts/`, the
    /// old layout's files another machine's older leitner wrote, other devices' day records that
    /// cannot be read.
    func sharedStateProblems() -> [StoreProblem] {
        var problems: [StoreProblem] = []
        if let conflicts = try? FileDescriptor.openDirectory(Store.conflictsDirectoryName, relativeTo: sharedFD) {
            defer { conflicts.close() }
            let names = ((try? FileSystem.list(conflicts)) ?? []).map(\.name).filter { !$0.hasPrefix(".") }
            for name in names.sorted() {
                problems.append(StoreProblem(
                    kind: .syncConflict, path: conflictsPath + "/" + name,
                    reason: "a copy of a card a sync left in two levels, set aside because it differed from the copy kept",
                    advice: "compare it with the card in its level, keep what you need (mv it back as the card, or copy a side over), then remove it"))
            }
        }
        for name in StoreMigration.leftovers(in: sharedFD) {
            problems.append(StoreProblem(
                kind: .damagedState, path: sharedPath + "/" + name,
                reason: "a file of the layout before devices, written since this machine moved to devices (an older leitner on another machine?); it is not read",
                advice: "update leitner on every machine that syncs this store, then remove it"))
        }
        for name in peerDeviceNames.sorted() {
            guard let reason = peer(named: name)?.daysProblem else { continue }
            problems.append(StoreProblem(
                kind: .damagedState, path: sharedPath + "/" + Store.devicesDirectoryName + "/" + name + "/" + DayRecordFile.name,
                reason: "another device's day record cannot be read, and is left out: \(reason)",
                advice: "mend it on the device '\(name)' (leitnerctl doctor there), or remove the device's directory if it is gone for good"))
        }
        return problems
    }
}
