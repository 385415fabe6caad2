import LeitnerSystem

/// Reverse cards (R28): a card directory holding a file `reverse-of`, one line naming another
/// card's id, and no sides. It is served with that card's sides swapped, so an edit of either
/// covers both directions; it has its own id, level and log lines.
///
/// The scan at open reads names only, so a reverse card is told from any other card when its
/// directory is read (`readSides`), never by its name: `ID.rev` is only the default. Finding a
/// card's reverses (a rename or a delete of it) is the box's `ReverseIndex`.
extension Store {
    /// The file that makes a card directory a reverse card.
    static let reverseFileName = "reverse-of"

    /// The most a `reverse-of` file holds: an id (128 bytes, R20) and a line end, with room for
    /// an editor's blank lines.
    static let maxReverseFileSize = 1024

    /// The default id of a card's reverse.
    static func defaultReverseID(of id: String) -> String? {
        let candidate = id + ".rev"
        return CardID.isValid(candidate) ? candidate : nil
    }
}

extension CardSource {
    /// The sides of a reverse card: those of the card its `reverse-of` names, swapped. Damaged
    /// (R21) when it has sides as well, when the file does not name a valid id, when that card
    /// is gone (dangling) or is itself a reverse card, or when that card is damaged.
    func readReverse(_ id: String, in level: Level, directory: FileDescriptor, entry: EntryKind, withText: Bool,
                     hasSides: Bool, asOriginal: Bool, read: Store.SidesRead) -> Store.SidesRead {
        var read = read
        let filePath = path(of: id, in: level) + "/" + Store.reverseFileName
        let named: String
        switch readReverseFile(in: directory, kind: entry, cardRelative: level.name + "/" + id) {
        case .failure(let damage):
            read.sides = .failure(CardDamage(
                "'\(filePath)': \(damage.reason)",
                advice: "write the id of the card it reverses into '\(filePath)', one line, or delete the card"))
            return read
        case .success(let text):
            named = text
        }
        if let problem = CardID.problem(named) {
            read.sides = .failure(CardDamage(
                "'\(filePath)' names '\(named)', which is not a valid card id: \(problem)",
                advice: "write the id of the card it reverses into '\(filePath)', one line, or delete the card"))
            return read
        }
        read.reverseOf = named
        if asOriginal {
            read.sides = .failure("'\(id)' is itself a reverse card (it reverses '\(named)'), with no sides of its own")
            return read
        }
        if hasSides {
            read.sides = .failure(CardDamage(
                "a reverse card of '\(named)' with sides of its own as well",
                advice: "remove '\(filePath)' to keep it as a card of its own, or remove its front and back files to keep it a reverse"))
            return read
        }
        guard named != id, let originalLevel = self.level(of: named) else {
            read.sides = .failure(CardDamage(
                named == id ? "a reverse card of itself" : "a dangling reverse card: '\(named)', the card it reverses, is not in the store",
                advice: "delete it (leitnerctl delete \(id)), or write the id of an existing card into '\(filePath)'"))
            return read
        }
        let original = readSides(named, in: originalLevel, withText: withText, asOriginal: true)
        switch original.sides {
        case .success(let (front, back)):
            read.sides = .success((back, front))
            if let marked = original.markedSides { read.markedSides = marked }
        case .failure(let damage):
            let isReverse = original.reverseOf != nil
            read.sides = .failure(CardDamage(
                isReverse ? "a reverse of a reverse: '\(named)', which it names, is a reverse card itself"
                          : "'\(named)', the card it reverses, is damaged: \(damage.reason)",
                advice: isReverse ? "write the id of the original card (\(original.reverseOf ?? "?")) into '\(filePath)', or delete it"
                                  : "mend '\(named)'; this reverse shows its sides again then"))
        }
        return read
    }

    /// The id a `reverse-of` file names: its first line, without surrounding white space.
    func readReverseFile(in directory: FileDescriptor, kind: EntryKind, cardRelative: String) -> Result<String, CardDamage> {
        readLinkFile(Store.reverseFileName, what: "a card id", in: directory, kind: kind, cardRelative: cardRelative).map { text in
            let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
            return CardID.composed(String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
        }
    }

    /// The text of a small file that makes a card directory name another (`reverse-of`,
    /// `cloze-of`), at most `Store.maxReverseFileSize` bytes of `what`. Opened as a side is, so
    /// that a link leading out of the store is never read (R22).
    func readLinkFile(_ name: String, what: String, in directory: FileDescriptor, kind: EntryKind,
                      cardRelative: String) -> Result<String, CardDamage> {
        openSide(name, kind: kind, in: directory, cardRelative: cardRelative).flatMap { opened in
            defer { opened.file.close() }
            guard Int(opened.status.st_size) <= Store.maxReverseFileSize else {
                return .failure("too large for \(what) (\(opened.status.st_size) bytes)")
            }
            do { return .success(String(decoding: try opened.file.readAll(limit: Store.maxReverseFileSize), as: UTF8.self)) } catch {
                return .failure("cannot read: \(error)")
            }
        }
    }
}

extension Store {
    /// The id the `reverse-of` of card `id` (in `level`) names, nil when it is no reverse card or
    /// the file cannot be read. One `stat` for a card that is not a reverse.
    func reverseOriginal(_ id: String, in level: Level) -> String? {
        guard let levelDirectory = openFD(level),
              let st = try? FileSystem.status(id + "/" + Store.reverseFileName, in: levelDirectory) else { return nil }
        guard let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelDirectory) else { return nil }
        defer { directory.close() }
        let kind: EntryKind = st.kind == .symlink ? .symlink : .file
        if case .success(let named) = readReverseFile(in: directory, kind: kind, cardRelative: level.name + "/" + id) {
            return named
        }
        return nil
    }

    /// Writes a new reverse card under `.leitner/tmp/add-ID`: its directory holding `reverse-of`,
    /// and a `tags` file when `tags` are given (R25: a reverse card's tags are its own). `synced`
    /// for a card committed on its own; a batch syncs the file system at once.
    func stageReverse(_ id: String, of original: String, level: Level, tags: [String] = [], typeAnswer: Bool = false,
                      synced: Bool) throws(BoxError) -> StagedCard {
        try stageLinkCard(id, file: (Store.reverseFileName, original + "\n"), level: level, tags: tags, typeAnswer: typeAnswer,
                          synced: synced)
    }

    /// Writes a new card that names another under `.leitner/tmp/add-ID`: a reverse card's
    /// `reverse-of` (R28), a cloze card's `cloze-of` (R30), and `tags` when there are some.
    func stageLinkCard(_ id: String, file: (name: String, text: String), level: Level, tags: [String],
                       typeAnswer: Bool = false, synced: Bool) throws(BoxError) -> StagedCard {
        let staged = "add-" + id
        do {
            if FileSystem.exists(staged, in: stagingFD) { try FileSystem.removeTree(staged, in: stagingFD) }
            try FileSystem.makeDirectory(staged, in: stagingFD)
            let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
            defer { dir.close() }
            var files = [(file.name, Array(file.text.utf8))]
            if !tags.isEmpty { files.append((CardTag.fileName, Array(CardTag.fileText(tags).utf8))) }
            files += Store.typeAnswerFiles(typeAnswer).map { ($0.name, $0.bytes) }
            for (name, bytes) in files {
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
        return StagedCard(staged: staged, id: id, level: level)
    }
}
