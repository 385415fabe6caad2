import LeitnerSystem

/// Cloze cards (R30): a card directory holding a file `cloze-of` — the note's id on its first
/// line, the deletion number (`c2`, or `2`) on its second — and no sides. It is served with the
/// text of `notes/NOTE/`, deletion N hidden on the front and revealed on the back (`ClozeText`),
/// so an edit of the note reaches every card of it. Told from any other card when its directory
/// is read, never by its name: `NOTE.cN` is only the default.
extension Store {
    /// The file that makes a card directory a cloze card.
    static let clozeFileName = CardLayout.clozeFile
    /// The place of the notes, beside the levels: never reviewed, never a card's level.
    static let notesDirectoryName = CardLayout.notesDirectory
    /// A note's text, Markdown first; its extra, shown with every answer.
    static let noteTextNames = CardLayout.noteTexts
    static let noteExtraName = CardLayout.noteExtra
    /// The most a note's text (or extra) holds: as much as a side carries inline.
    static var maxNoteText: Int { maxInlineText }

    /// The default id of card N of note `note`.
    static func defaultClozeID(note: String, number: Int) -> String? {
        let candidate = note + ".c\(number)"
        return CardID.isValid(candidate) ? candidate : nil
    }

    /// The text of a `cloze-of` file naming `link`.
    static func clozeFileText(_ link: ClozeOf) -> String { CardLayout.clozeFileText(link) }
}

/// A note read from `notes/ID/` (R30).
struct NoteRead {
    /// `notes/ID/text.md` or `text.txt`, as the sides' path.
    var textPath: String
    var mediaType: String
    /// The text as written, and taken apart.
    var source: String
    var text: ClozeText
    var extra: String?
    /// The text and extra are regular files, not links: a change of either is an event of the
    /// note's directory, so the read may be kept (`NoteReads`).
    var isKeepable = false
    /// Each number's card as shown, text and media, made at its first `Show` while the read is
    /// kept: a medium of the note that comes or goes is an event of its directory too, which
    /// drops them with the read.
    var shown: [Int: (front: Side, back: Side)] = [:]
}

/// Notes read for their cards' sides (R30), kept so that a cloze card is served without reading
/// its note again: only a note whose directory is watched (`NoteIndex` says by which watch) and
/// whose text and extra are regular files, and only until an event of that watch, an event of
/// `notes/` naming the note, a write of the note by the box, or lost events. The events are taken
/// in as they are drained (`Store.refresh`), before anything of the request reads a card.
struct NoteReads {
    /// The most notes kept: past it, they are forgotten together and read again as cards need them.
    static let most = 4096
    private(set) var kept: [String: NoteRead] = [:]
    private var noteOfWatch: [Int32: String] = [:]
    private var watchOfNote: [String: Int32] = [:]
    /// The watch on `notes/`: an event of it names a note come, gone or renamed.
    var notesWatch: Int32?

    /// The note `note` is watched by `watch` (nil: no longer, or never); what was kept of it is dropped.
    mutating func watched(_ note: String, by watch: Int32?) {
        kept[note] = nil
        if let old = watchOfNote.removeValue(forKey: note), noteOfWatch[old] == note { noteOfWatch[old] = nil }
        guard let watch else { return }
        if let other = noteOfWatch[watch] {
            kept[other] = nil
            watchOfNote[other] = nil
        }
        noteOfWatch[watch] = note
        watchOfNote[note] = watch
    }

    /// Takes the first look's watches (`NoteLook`), made on its thread and told at once when its
    /// index is installed: both ways at once when nothing is watched yet, as at the first request.
    mutating func adopt(notes: Int32?, noteOfWatch: [Int32: String], watchOfNote: [String: Int32]) {
        if let notes { notesWatch = notes }
        guard self.noteOfWatch.isEmpty, self.watchOfNote.isEmpty, kept.isEmpty else {
            for (watch, note) in noteOfWatch { watched(note, by: watch) }
            return
        }
        self.noteOfWatch = noteOfWatch
        self.watchOfNote = watchOfNote
    }

    mutating func keep(_ read: NoteRead, of note: String) {
        guard read.isKeepable, watchOfNote[note] != nil else { return }
        if kept.count >= NoteReads.most { kept.removeAll(keepingCapacity: true) }
        kept[note] = read
    }

    /// An event of a watch: the note it names, or whose directory it is, is read again.
    mutating func event(watch: Int32, entry: String) {
        if watch == notesWatch {
            if entry.isEmpty { kept.removeAll() } else { kept[entry] = nil }
        } else if let note = noteOfWatch[watch] {
            kept[note] = nil
        }
    }

    /// Keeps the sides of card `link` with its note's read, while that is kept.
    mutating func keep(_ sides: (front: Side, back: Side), of link: ClozeOf) {
        kept[link.note]?.shown[link.number] = sides
    }

    mutating func forget(_ note: String) { kept[note] = nil }
    mutating func forgetAll() { kept.removeAll() }
}

extension CardSource {
    /// Reads the note `note`: its text (one of `text.md`, `text.txt`) and its `extra.md`.
    /// - Returns: why it cannot be read, as a card reading it is damaged by (R21).
    func readNote(_ note: String) -> Result<NoteRead, CardDamage> {
        let notePath = root + "/" + Store.notesDirectoryName + "/" + note
        let directory: FileDescriptor
        do {
            let notes = try FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: rootFD)
            defer { notes.close() }
            directory = try FileDescriptor.openDirectory(note, relativeTo: notes)
        } catch where error == .noEntry {
            return .failure("the note '\(note)' is not in '\(root)/\(Store.notesDirectoryName)'")
        } catch {
            return .failure("cannot open the note '\(notePath)': \(error)")
        }
        defer { directory.close() }
        let relative = Store.notesDirectoryName + "/" + note
        var texts: [(String, EntryKind)] = []
        var extraKind: EntryKind?
        do {
            try FileSystem.forEachEntry(directory, fresh: true) { name, kind in
                if Store.noteTextNames.contains(name) { texts.append((name, kind)) }
                if name == Store.noteExtraName { extraKind = kind }
            }
        } catch {
            return .failure("cannot read the note '\(notePath)': \(error)")
        }
        guard texts.count == 1, let (textName, textKind) = texts.first else {
            return .failure(texts.isEmpty ? "the note '\(notePath)' has no text.md or text.txt"
                                          : "the note '\(notePath)' has both text.md and text.txt")
        }
        func read(_ name: String, _ kind: EntryKind) -> Result<String, CardDamage> {
            openSide(name, kind: kind, in: directory, cardRelative: relative).flatMap { opened in
                defer { opened.file.close() }
                guard Int(opened.status.st_size) <= Store.maxNoteText else {
                    return .failure("'\(notePath)/\(name)' is too large for a note (\(opened.status.st_size) bytes, at most \(Store.maxNoteText))")
                }
                do { return .success(String(decoding: try opened.file.readAll(limit: Store.maxNoteText), as: UTF8.self)) } catch {
                    return .failure("cannot read '\(notePath)/\(name)': \(error)")
                }
            }
        }
        let text: String
        switch read(textName, textKind) {
        case .success(let value): text = value
        case .failure(let damage): return .failure(damage)
        }
        var extra: String?
        if let extraKind {
            switch read(Store.noteExtraName, extraKind) {
            case .success(let value): extra = value
            case .failure(let damage): return .failure(damage)
            }
        }
        return .success(NoteRead(textPath: notePath + "/" + textName, mediaType: MediaType.of(fileName: textName),
                                 source: text, text: ClozeText(parsing: text), extra: extra,
                                 isKeepable: textKind == .file && (extraKind == nil || extraKind == .file)))
    }

    /// The sides of a cloze card: its note's text with deletion N hidden, and revealed. Damaged
    /// (R21) when `cloze-of` names no valid note and number, when the card has sides as well, when
    /// the note is gone or unreadable, or when the note no longer holds deletion N.
    func readCloze(_ id: String, in level: Level, directory: FileDescriptor, entry: EntryKind, withText: Bool,
                   hasSides: Bool, asOriginal: Bool, read: Store.SidesRead) -> Store.SidesRead {
        var read = read
        let filePath = path(of: id, in: level) + "/" + Store.clozeFileName
        let fix = "write the note's id and the number (c1, c2, …) into '\(filePath)', one a line, or delete the card"
        let link: ClozeOf
        switch readClozeFile(in: directory, kind: entry, cardRelative: level.name + "/" + id) {
        case .failure(let damage):
            read.sides = .failure(CardDamage("'\(filePath)': \(damage.reason)", advice: fix))
            return read
        case .success(let named):
            link = named
        }
        read.clozeOf = link
        if asOriginal {
            read.sides = .failure("'\(id)' is a cloze card (\(link.description)), which has no sides to swap")
            return read
        }
        if hasSides {
            read.sides = .failure(CardDamage(
                "a cloze card of '\(link.note)' with sides of its own as well",
                advice: "remove '\(filePath)' to keep it as a card of its own, or remove its front and back files to keep it a cloze card"))
            return read
        }
        let note: NoteRead
        switch noteForCards(link.note) {
        case .failure(let damage):
            read.sides = .failure(CardDamage(
                "a cloze card whose note is gone or unreadable: \(damage.reason)",
                advice: "restore the note '\(root)/\(Store.notesDirectoryName)/\(link.note)', or delete the card (leitnerctl delete \(id))"))
            return read
        case .success(let value):
            note = value
        }
        guard note.text.numbers.contains(link.number) else {
            read.sides = .failure(CardDamage(
                "the note '\(link.note)' no longer holds deletion c\(link.number)",
                advice: "put a {{c\(link.number)::…}} back into '\(note.textPath)', or delete the card (leitnerctl delete \(id))"))
            return read
        }
        guard withText else {
            read.sides = .success((Side(path: note.textPath, mediaType: note.mediaType, text: nil),
                                   Side(path: note.textPath, mediaType: note.mediaType, text: nil)))
            return read
        }
        if let shown = note.shown[link.number] {
            read.sides = .success(shown)
            return read
        }
        let markdown = note.mediaType == "text/markdown"
        let question = note.text.question(hiding: link.number, markdown: markdown)
        let answer = note.text.answer(revealing: link.number, markdown: markdown, extra: note.extra)
        // A note's media serve its cards (R31): they are files of the note's directory.
        let front = Side(path: note.textPath, mediaType: note.mediaType, text: question,
                         media: noteMedia(of: question, mediaType: note.mediaType, note: link.note))
        let back = Side(path: note.textPath, mediaType: note.mediaType, text: answer,
                        media: noteMedia(of: answer, mediaType: note.mediaType, note: link.note))
        keepShown((front, back), of: link)
        read.sides = .success((front, back))
        return read
    }

    /// What a `cloze-of` file names: the note's id on its first non-blank line, the number
    /// (`c2` or `2`, 1…99) on the next.
    func readClozeFile(in directory: FileDescriptor, kind: EntryKind, cardRelative: String) -> Result<ClozeOf, CardDamage> {
        readLinkFile(Store.clozeFileName, what: "a note id and a number", in: directory, kind: kind, cardRelative: cardRelative)
            .flatMap(Store.parseClozeFile)
    }
}

extension Store {
    /// The note and number a `cloze-of` file's text names, or why it names none.
    static func parseClozeFile(_ text: String) -> Result<ClozeOf, CardDamage> {
        if let link = plainClozeFile(text) { return .success(link) }
        let lines = text.split(whereSeparator: \.isNewline).map { line in
            String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        }.filter { !$0.isEmpty }
        guard lines.count == 2 else {
            return .failure("holds \(lines.count) lines; it must hold two: the note's id, then the number (c1, c2, …)")
        }
        let note = CardID.composed(lines[0])
        if let problem = CardID.problem(note) {
            return .failure("names '\(note)', which is not a valid note id: \(problem)")
        }
        let digits = lines[1].hasPrefix("c") ? lines[1].dropFirst() : Substring(lines[1])
        guard let number = Int(digits), (1...ClozeText.maxNumber).contains(number) else {
            return .failure("'\(lines[1])' is not a deletion number (c1 to c\(ClozeText.maxNumber))")
        }
        return .success(ClozeOf(note: note, number: number))
    }

    /// What `parseClozeFile` finds in the form the box writes, `NOTE\ncN\n` with an ASCII id,
    /// read from the bytes (a cloze card's `cloze-of` is read at every `Show` of it); nil for
    /// anything else, which the general reading judges.
    private static func plainClozeFile(_ text: String) -> ClozeOf? {
        var text = text
        return text.withUTF8 { bytes -> ClozeOf? in
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let id = UnsafeBufferPointer(rebasing: bytes[..<newline])
            var number = bytes[(newline + 1)...]
            if number.last == UInt8(ascii: "\n") { number = number.dropLast() }
            guard CardID.isValidASCII(id), number.first == UInt8(ascii: "c"), (2...3).contains(number.count) else { return nil }
            var value = 0
            for byte in number.dropFirst() {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            guard (1...ClozeText.maxNumber).contains(value) else { return nil }
            return ClozeOf(note: String(decoding: id, as: UTF8.self), number: value)
        }
    }
}

extension Store {
    /// A note written under `.leitner/tmp/`, put into `notes/` by `commitStagedCards`.
    struct StagedNote {
        var staged: String
        var id: String
    }

    /// `notes/`, made when missing.
    func notesDirectory() throws(BoxError) -> FileDescriptor {
        try Store.subdirectory(Store.notesDirectoryName, of: rootFD, path: root + "/" + Store.notesDirectoryName)
    }

    /// The path of the note `id`'s directory.
    func notePath(_ id: String) -> String { root + "/" + Store.notesDirectoryName + "/" + id }

    /// True when `notes/` holds a note directory `id`.
    func hasNote(_ id: String) -> Bool {
        CardID.isValid(id) && FileSystem.exists(Store.notesDirectoryName + "/" + id, in: rootFD)
    }

    /// Writes a new note (R30) under `.leitner/tmp/note-ID`, with `more` files beside its text
    /// (its `type-answer`, its media), synced, for `commitStagedCards` to put into `notes/` in the
    /// same journaled change as its cards: the note and all its cards, or nothing (R18). In a
    /// batch (`AddClozes`) it goes under the batch's directory, `BATCH/note-ID`, unsynced:
    /// `commitBatch` syncs the whole batch at once.
    /// - Throws: `invalidParameter` when the note exists; `storeFailure` naming the path.
    func stageNote(_ id: String, text: String, extra: String?, tags: [String],
                   files more: [(name: String, bytes: [UInt8])] = [], in batch: String? = nil) throws(BoxError) -> StagedNote {
        if hasNote(id) {
            throw .invalidParameter(name: "id", reason: "a note '\(id)' exists in '\(root)/\(Store.notesDirectoryName)'")
        }
        let staged = batch.map { $0 + "/note-" + id } ?? "note-" + id
        let synced = batch == nil
        do {
            if FileSystem.exists(staged, in: stagingFD) { try FileSystem.removeTree(staged, in: stagingFD) }
            try FileSystem.makeDirectory(staged, in: stagingFD)
            let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
            defer { dir.close() }
            var files: [(name: String, bytes: [UInt8])] = [(Store.noteTextNames[0], Array(text.utf8))]
            if let extra { files.append((Store.noteExtraName, Array(extra.utf8))) }
            if !tags.isEmpty { files.append((CardTag.fileName, Array(CardTag.fileText(tags).utf8))) }
            for (name, bytes) in files + more {
                let file = try FileDescriptor.open(name, relativeTo: dir, .writeOnly, options: [.create, .exclusive, .noFollow])
                defer { file.close() }
                try file.writeAll(bytes)
                if synced { try file.sync() }
            }
            if synced {
                try dir.sync()
                try stagingFD.sync()
            }
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw .failing(.write, statePath + "/tmp/" + staged, error)
        }
        return StagedNote(staged: staged, id: id)
    }

    /// Renames the note `id` to `newID` in `notes/` (R30, as R28 renames a card): its cards keep
    /// their ids, and their `cloze-of` is rewritten to name `newID` in the same journaled change,
    /// each as an edit (a copy exchanged with the card's directory), so that a crash leaves the
    /// note and all its cards under the old id or all under the new one (R18).
    /// - Parameter moved: the note's directory is `newID` already (renamed by hand, seen by the
    ///   box): only its cards are rewritten.
    /// - Throws: `invalidParameter` when a note `newID` exists; `storeFailure` naming the path.
    func renameNote(_ id: String, to newID: String, cards: [(id: String, level: Level, number: Int)],
                    journal: [LogEntry], moved: Bool = false) throws(BoxError) {
        let notes = try notesDirectory()
        defer { notes.close() }
        let taken = "a note '\(newID)' exists in '\(root)/\(Store.notesDirectoryName)'"
        let linked: [(id: String, level: Level, file: String, text: String)] = cards.map {
            ($0.id, $0.level, Store.clozeFileName, Store.clozeFileText(ClozeOf(note: newID, number: $0.number)))
        }
        if moved {
            try rewriteLinks(linked, journal: journal, first: nil)
        } else {
            if FileSystem.exists(newID, in: notes) { throw .invalidParameter(name: "newId", reason: taken) }
            let mark = try Store.failing(.open, notePath(id)) { () throws(Errno) in CardGuard(try FileSystem.status(id, in: notes)) }
            try rewriteLinks(linked, journal: journal, first: (.renameNote(id: id, to: newID, guard: mark), carryOut: { [self] () throws(BoxError) in
                do throws(Errno) {
                    try FileSystem.rename(id, in: notes, to: newID, in: notes)
                } catch {
                    if error == .exists || error == .notEmpty { throw .invalidParameter(name: "newId", reason: taken) }
                    throw .failing(.rename, notePath(id), error, doing: "cannot rename to '\(notePath(newID))'")
                }
            }, undo: { () throws(Errno) in try FileSystem.rename(newID, in: notes, to: id, in: notes) }))
        }
        publishNote(id)
        publishNote(newID)
    }

    /// Deletes the note `id` and the cards `cards` (its cards, unless they are kept) in one
    /// journaled change: the note's directory and each card's renamed into the trash, then
    /// removed; should a rename fail, the ones made are put back.
    func removeNote(_ id: String, cards: [(id: String, level: Level)], journal: [LogEntry]) throws(BoxError) {
        let notes = try notesDirectory()
        defer { notes.close() }
        let mark = try Store.failing(.open, notePath(id)) { () throws(Errno) in CardGuard(try FileSystem.status(id, in: notes)) }
        let trashed = "note-\(id).\(CurrentProcess.id).\(log.size)"
        try removeCards(cards, journal: journal, first: (.deleteNote(id: id, guard: mark, trashed: trashed), carryOut: { [self] () throws(BoxError) in
            try Store.failing(.rename, notePath(id), doing: "cannot delete") { () throws(Errno) in
                try FileSystem.rename(id, in: notes, to: trashed, in: trashFD)
            }
        }, undo: { [self] () throws(Errno) in try FileSystem.rename(trashed, in: trashFD, to: id, in: notes) }))
        try? FileSystem.removeTree(trashed, in: trashFD)
        publishNote(id)
    }
}

extension Store {
    /// The tags of the note `note`, from its `tags` file: none when it has none or it cannot be
    /// read (its cards' own tags are theirs to keep, R25).
    func noteTags(_ note: String) -> [String] {
        let relative = Store.notesDirectoryName + "/" + note + "/" + CardTag.fileName
        guard let file = try? FileDescriptor.open(relative, relativeTo: rootFD, .readOnly, options: [.noFollow, .nonBlocking]) else {
            return []
        }
        defer { file.close() }
        guard let status = try? file.status(), status.isRegularFile, let bytes = try? file.read(upTo: CardTag.maxFileSize) else { return [] }
        return CardTag.parse(String(decoding: bytes, as: UTF8.self)).tags
    }
}

/// `edit` of a cloze card edits its note (R30): the front is the note's text, the back its extra.
extension Store {
    /// The bytes `ReadAsset` gives for a side of a cloze card: the front is the note's text as
    /// `front.md` (or `front.txt`), the back its `extra.md` as `back.md`, empty when it has none,
    /// so that an editor opens what the note holds and `edit` sends it back.
    func noteAsset(_ link: ClozeOf, side: SideName, limit: Int) throws(BoxError) -> (name: String, data: [UInt8]) {
        let notePath = root + "/" + Store.notesDirectoryName + "/" + link.note
        let note: NoteRead
        switch noteForCards(link.note) {
        case .success(let read): note = read
        case .failure(let damage): throw .storeFailure(path: notePath, reason: damage.reason)
        }
        let text = side == .front ? note.source : (note.extra ?? "")
        guard text.utf8.count <= limit else { throw .storeFailure(path: notePath, reason: "too large: \(text.utf8.count) bytes") }
        let ext = side == .front ? (MediaType.fileExtension(note.textPath) ?? "md") : "md"
        return (side.rawValue + "." + ext, Array(text.utf8))
    }

    /// Writes the note's text (`text.md` or `text.txt`, by `text`'s extension: the other one is
    /// removed) and its `extra.md`, each atomically (written, synced, renamed over the old one).
    /// - Returns: whether a file changed.
    /// - Throws: `storeFailure` naming the path when the note cannot be written.
    func writeNote(_ note: String, text: (name: String, text: String)?, extra: String?) throws(BoxError) -> Bool {
        let notePath = root + "/" + Store.notesDirectoryName + "/" + note
        var changed = false
        do {
            let directory = try FileDescriptor.openDirectory(Store.notesDirectoryName + "/" + note, relativeTo: rootFD)
            defer { directory.close() }
            func current(_ name: String) -> [UInt8]? { try? FileSystem.readFile(name, in: directory, limit: Store.maxNoteText) }
            if let text {
                if current(text.name) != Array(text.text.utf8) {
                    try FileSystem.writeAtomically(Array(text.text.utf8), to: text.name, in: directory)
                    changed = true
                }
                for other in Store.noteTextNames where other != text.name && FileSystem.exists(other, in: directory) {
                    try FileSystem.removeFile(other, in: directory)
                    try directory.sync()
                    changed = true
                }
            }
            if let extra, current(Store.noteExtraName) != Array(extra.utf8) {
                try FileSystem.writeAtomically(Array(extra.utf8), to: Store.noteExtraName, in: directory)
                changed = true
            }
        } catch {
            throw .failing(.write, notePath, error)
        }
        if changed { publishNote(note) }
        return changed
    }
}
