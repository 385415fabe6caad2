import LeitnerSystem

/// Changing a card in place: new sides (an edit) and a new id (a rename). Both keep the card's
/// level; both are journaled, so that a crash leaves the card as it was or as it was asked to be
/// (R17, R18).
extension Store {
    /// A side to write: which one, its file name (`front.md`) and its bytes.
    struct NewSide {
        var side: SideName
        var name: String
        var bytes: [UInt8]
    }

    /// Replaces sides of a card at once. The card's directory is copied to
    /// `.leitner/tmp/edit-ID` — the new sides written and synced, every other entry hard-linked —
    /// and then exchanged with the card's directory in one `renameat2(RENAME_EXCHANGE)`: the
    /// card is never without a side nor with two fronts, even when the extension changes
    /// (`front.txt` → `front.md`). The old copy is removed after the reply's change is logged.
    func replaceSides(_ id: String, in level: Level, with sides: [NewSide], journal: [LogEntry]) throws(BoxError) {
        let replaced = Set(sides.map(\.side))
        // The sides being replaced are left behind, whatever their extension.
        try replaceFiles(id, in: level, leaving: { name in
            SideName.allCases.first(where: { Store.isSideFile(name, of: $0) }).map(replaced.contains) ?? false
        }, writing: sides.map { ($0.name, $0.bytes) }, journal: journal)
    }

    /// Replaces files of a card at once, as `replaceSides` describes: the entries `leaving`
    /// names are left behind, the others hard-linked into the copy (`stageEditedCopy`), and
    /// `writing` written there.
    func replaceFiles(_ id: String, in level: Level, leaving: (String) -> Bool, writing: [(name: String, bytes: [UInt8])],
                      journal: [LogEntry]) throws(BoxError) {
        let levelDirectory = try fd(level)
        let staged = try stageEditedCopy(id, in: level, leavingOut: leaving, writing: writing)
        let stagedPath = statePath + "/tmp/" + staged
        let guardMark = try cardGuard(id, in: level)
        do {
            try journaled(journal, intent: [.edit(staged: staged, id: id, in: level, guard: guardMark)], carryOut: { () throws(BoxError) in
                do throws(Errno) {
                    try FileSystem.exchange(staged, in: stagingFD, with: id, in: levelDirectory)
                } catch {
                    throw .failing(.rename, path(of: id, in: level), error, doing: "cannot replace with '\(stagedPath)'")
                }
            }, undo: { () throws(Errno) in try FileSystem.exchange(staged, in: stagingFD, with: id, in: levelDirectory) })
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw error
        }
        noteDamage(of: id, nil)
        try? FileSystem.removeTree(staged, in: stagingFD)
    }

    /// Copies a card's directory to `.leitner/tmp/edit-ID` for an exchange (`FileSystem.exchange`):
    /// every entry hard-linked but those `leavingOut` names, then the files `writing` gives, all
    /// synced. A person's own files in the card (notes) stay with it; a subdirectory cannot be
    /// linked, so such a card is refused rather than emptied.
    /// - Returns: the staged copy's name in `.leitner/tmp/`.
    func stageEditedCopy(_ id: String, in level: Level, leavingOut: (String) -> Bool,
                         writing files: [(name: String, bytes: [UInt8])]) throws(BoxError) -> String {
        let levelDirectory = try fd(level)
        let staged = "edit-" + id
        let stagedPath = statePath + "/tmp/" + staged
        do throws(Errno) {
            if FileSystem.exists(staged, in: stagingFD) { try FileSystem.removeTree(staged, in: stagingFD) }
            try FileSystem.makeDirectory(staged, in: stagingFD)
            let copy = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
            defer { copy.close() }
            let card = try FileDescriptor.openDirectory(id, relativeTo: levelDirectory)
            defer { card.close() }
            for entry in try FileSystem.list(card) where !leavingOut(entry.name) {
                if entry.kind == .directory { throw Errno.isDirectory }
                try FileSystem.link(entry.name, in: card, as: entry.name, in: copy)
            }
            for file in files {
                let written = try FileDescriptor.open(file.name, relativeTo: copy, .writeOnly, options: [.create, .exclusive, .noFollow])
                defer { written.close() }
                try written.writeAll(file.bytes)
                try written.sync()
            }
            try copy.sync()
            try stagingFD.sync()
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            if error == .isDirectory {
                throw .storeFailure(path: path(of: id, in: level),
                                    reason: "cannot edit: the card directory holds a subdirectory; edit its files by hand")
            }
            throw .failing(.write, stagedPath, error)
        }
        return staged
    }

    /// Gives a card a new id in its level: the change is journaled, then the rename done (R17).
    /// Its reverse cards (R28) get a `reverse-of` naming the new id in the same journaled change,
    /// each as an edit (a copy exchanged with the reverse's directory), so that a crash leaves
    /// the card and all its reverses under the old id or all under the new one (R18).
    /// - Parameter reverses: the card's reverse cards and their levels.
    /// - Throws: `cardExists` when a directory of that name is in the level already.
    func renameCard(_ id: String, to newID: String, in level: Level, reverses: [(id: String, level: Level)] = [],
                    journal: [LogEntry]) throws(BoxError) {
        let directory = try fd(level)
        let guardMark = try cardGuard(id, in: level)
        let linked: [(id: String, level: Level, file: String, text: String)] = reverses.map {
            ($0.id, $0.level, Store.reverseFileName, newID + "\n")
        }
        try rewriteLinks(linked, journal: journal,
                         first: (.rename(id: id, to: newID, in: level, guard: guardMark), carryOut: { [self] () throws(BoxError) in
            do throws(Errno) {
                try FileSystem.rename(id, in: directory, to: newID, in: directory)
            } catch {
                if error == .exists { throw .cardExists(id: newID) }
                throw .failing(.rename, path(of: id, in: level), error, doing: "cannot rename to '\(path(of: newID, in: level))'")
            }
        }, undo: { () throws(Errno) in try FileSystem.rename(newID, in: directory, to: id, in: directory) }))
        setLevel(id, nil)
        setLevel(newID, level)
        carryDamage(from: id, to: newID)
    }

    /// A rename (`first`: a card's, R28, or a note's, R30) and the rewrite of the link file of
    /// each card that names what was renamed (`linked`: its `reverse-of` or `cloze-of`, with the
    /// text it gets), in one journaled change: each card's copy is staged with the new file, then
    /// exchanged with its directory as an edit is, so that a crash leaves all of them as they
    /// were or all renamed and rewritten (R18). Should a step fail, the ones made are undone.
    func rewriteLinks(_ linked: [(id: String, level: Level, file: String, text: String)], journal: [LogEntry],
                      first: FirstRename?) throws(BoxError) {
        var rewritten: [(id: String, directory: FileDescriptor, staged: String)] = []
        var intents: [JournalIntent] = first.map { [$0.intent] } ?? []
        do {
            for card in linked {
                let staged = try stageEditedCopy(card.id, in: card.level, leavingOut: { $0 == card.file },
                                                 writing: [(card.file, Array(card.text.utf8))])
                rewritten.append((card.id, try fd(card.level), staged))
                intents.append(.edit(staged: staged, id: card.id, in: card.level, guard: try cardGuard(card.id, in: card.level)))
            }
            var exchanged = 0
            try journaled(journal, intent: intents, carryOut: { () throws(BoxError) in
                try first?.carryOut()
                for card in rewritten {
                    do throws(Errno) {
                        try FileSystem.exchange(card.staged, in: stagingFD, with: card.id, in: card.directory)
                    } catch {
                        // Back as it was: the cards exchanged so far, then the rename.
                        for done in rewritten.prefix(exchanged).reversed() {
                            try? FileSystem.exchange(done.staged, in: stagingFD, with: done.id, in: done.directory)
                        }
                        try? first?.undo()
                        throw .failing(.rename, statePath + "/tmp/" + card.staged, error,
                                       doing: "cannot rewrite the card '\(card.id)'")
                    }
                    exchanged += 1
                }
            }, undo: { () throws(Errno) in
                for card in rewritten.reversed() {
                    try FileSystem.exchange(card.staged, in: stagingFD, with: card.id, in: card.directory)
                }
                try first?.undo()
            })
        } catch {
            for card in rewritten { try? FileSystem.removeTree(card.staged, in: stagingFD) }
            throw error
        }
        for card in rewritten {
            // The staged name holds the old copy now.
            try? FileSystem.removeTree(card.staged, in: stagingFD)
            publishWritten(card.id)
        }
    }

    /// True when `name` is a side file of a card: `front.` or `back.` and an extension of
    /// letters and digits. Editors' leftovers beside it — `front.txt~`, `front.txt.swp`,
    /// `.front.txt.swp`, `#front.txt#` — are not sides, so that editing a card's file by hand
    /// with any editor leaves a sound card (R13, R21).
    static func isSideFile(_ name: String, of side: SideName) -> Bool {
        let prefix = side.rawValue + "."
        guard name.hasPrefix(prefix) else { return false }
        let ext = name.utf8.dropFirst(prefix.utf8.count)
        return !ext.isEmpty && ext.count <= 16 && ext.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
    }
}
