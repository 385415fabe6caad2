import LeitnerSystem

/// Repair at open (R18): finishes the renames a crash cut off, puts back what was not begun, and
/// empties the trash. Runs before the daemon serves anything.
///
/// Only the journal's records are redone — written by the daemon, numbered and checksummed — never
/// the review log's lines, which are history: a line a person adds to the log moves no card. And
/// a rename is redone only while the card directory is still as it was just before it (its guard):
/// a hand that moved the card after the change keeps the last word (R13).
extension Store {
    func repair(now: Int64) throws(BoxError) {
        // Cards the repair itself moved: a later record of the same card continues from there.
        var moved: [String: Level] = [:]
        for intent in log.unfinishedIntents {
            try redo(intent, moved: &moved)
        }
        // A batch's record is written only after every journal record before it is synced, and
        // removed before any after it: it comes last.
        try repairBatch()
        try clearStaging()
        do {
            for entry in try FileSystem.list(trashFD) { try FileSystem.removeTree(entry.name, in: trashFD) }
        } catch {
            throw .failing(.remove, statePath + "/trash", error, doing: "cannot empty")
        }
        // A checkpoint that fails here (a full disk) leaves the journal as it is: its records
        // stay, new ones follow them, and the next checkpoint or open takes them in. The store
        // opens all the same, to serve what it holds.
        do { try checkpoint() } catch {
            noteCheckpointFailure(error)
        }
    }

    /// True when the card directory `id` in `level` is the one the guard describes, untouched since.
    private func isUntouched(_ id: String, in level: Level, since mark: CardGuard, moved: [String: Level]) -> Bool {
        if moved[id] == level { return true }
        guard self.level(of: id) == level, let directory = openFD(level),
              let st = try? FileSystem.status(id, in: directory) else { return false }
        return CardGuard(st) == mark
    }

    /// Carries out one journaled rename if a crash cut it off.
    private func redo(_ intent: JournalIntent, moved: inout [String: Level]) throws(BoxError) {
        switch intent {
        case .move(let id, let from, let to, let mark):
            guard from != to, isUntouched(id, in: from, since: mark, moved: moved) else { return }
            do { try FileSystem.rename(id, in: try fd(from), to: id, in: try fd(to)) } catch {
                throw .failing(.rename, path(of: id, in: from), error, doing: "cannot finish an interrupted move to level \(to)")
            }
            setLevel(id, to)
            moved[id] = to
        case .add(let staged, let id, let to):
            guard level(of: id) == nil, FileSystem.exists(staged, in: stagingFD) else { return }
            let directory = try fd(to)
            try Store.failing(.rename, path(of: id, in: to), doing: "cannot finish an interrupted add") { () throws(Errno) in
                try FileSystem.rename(staged, in: stagingFD, to: id, in: directory)
            }
            setLevel(id, to)
            moved[id] = to
        case .delete(let id, let from, let mark, let trashed):
            guard isUntouched(id, in: from, since: mark, moved: moved) else { return }
            let level = try fd(from)
            try Store.failing(.rename, path(of: id, in: from), doing: "cannot finish an interrupted delete") { () throws(Errno) in
                try FileSystem.rename(id, in: level, to: trashed, in: trashFD)
            }
            setLevel(id, nil)
            moved[id] = nil
        case .edit(let staged, let id, let level, let mark):
            // Not exchanged yet: the card is as it was and the edited copy is staged. Once
            // exchanged, the staged name holds the old copy, which `clearStaging` removes.
            guard isUntouched(id, in: level, since: mark, moved: moved), FileSystem.exists(staged, in: stagingFD) else { return }
            let directory = try fd(level)
            try Store.failing(.rename, path(of: id, in: level), doing: "cannot finish an interrupted edit") { () throws(Errno) in
                try FileSystem.exchange(staged, in: stagingFD, with: id, in: directory)
            }
        case .rename(let id, let newID, let level, let mark):
            guard self.level(of: newID) == nil, isUntouched(id, in: level, since: mark, moved: moved) else { return }
            do { try FileSystem.rename(id, in: try fd(level), to: newID, in: try fd(level)) } catch {
                throw .failing(.rename, path(of: id, in: level), error, doing: "cannot finish an interrupted rename to '\(newID)'")
            }
            setLevel(id, nil)
            setLevel(newID, level)
            moved[id] = nil
            moved[newID] = level
        case .addNote(let staged, let id):
            let notes = try notesDirectory()
            defer { notes.close() }
            guard !FileSystem.exists(id, in: notes), FileSystem.exists(staged, in: stagingFD) else { return }
            try Store.failing(.rename, notePath(id), doing: "cannot finish an interrupted add") { () throws(Errno) in
                try FileSystem.rename(staged, in: stagingFD, to: id, in: notes)
            }
        case .renameNote(let id, let newID, let mark):
            let notes = try notesDirectory()
            defer { notes.close() }
            guard !FileSystem.exists(newID, in: notes), noteIsUntouched(id, in: notes, since: mark) else { return }
            try Store.failing(.rename, notePath(id), doing: "cannot finish an interrupted rename to '\(newID)'") { () throws(Errno) in
                try FileSystem.rename(id, in: notes, to: newID, in: notes)
            }
        case .deleteNote(let id, let mark, let trashed):
            let notes = try notesDirectory()
            defer { notes.close() }
            guard noteIsUntouched(id, in: notes, since: mark) else { return }
            try Store.failing(.rename, notePath(id), doing: "cannot finish an interrupted delete") { () throws(Errno) in
                try FileSystem.rename(id, in: notes, to: trashed, in: trashFD)
            }
        }
    }

    /// True when the note directory `id` is the one the guard describes, untouched since.
    private func noteIsUntouched(_ id: String, in notes: FileDescriptor, since mark: CardGuard) -> Bool {
        guard let st = try? FileSystem.status(id, in: notes) else { return false }
        return CardGuard(st) == mark
    }

    /// Staged cards whose add was never journaled are dropped (the state before the add);
    /// interrupted adoptions are put back as loose halves.
    private func clearStaging() throws(BoxError) {
        do {
            for entry in try FileSystem.list(stagingFD) {
                let name = entry.name
                if name.hasPrefix("adopt-") {
                    let rest = name.dropFirst("adopt-".count)
                    if let dash = rest.firstIndex(of: "-"), let level = Level(name: rest[..<dash]) {
                        try restoreAdoption(name, level: level, cardName: String(rest[rest.index(after: dash)...]))
                        continue
                    }
                }
                try FileSystem.removeTree(name, in: stagingFD)
            }
        } catch {
            throw .failing(.remove, statePath + "/tmp", error, doing: "cannot clear")
        }
    }
}
