import LeitnerSystem

/// What a card directory that names another holds instead of sides: a reverse card's
/// `reverse-of` (R28) or a cloze card's `cloze-of` (R30).
enum CardLink: Equatable {
    /// A reverse card of the card named.
    case reverse(of: String)
    /// Card N of a cloze note.
    case cloze(ClozeOf)
}

extension Store {
    /// The most a link file holds: an id (128 bytes, R20), a number and line ends, with room for
    /// an editor's blank lines.
    static let maxLinkFileSize = 1024

    /// What card `id` (in `level`) names, nil when it names nothing or its file cannot be read
    /// (reading the card says why: R21). Two `stat`s for a card that names nothing, so that the
    /// link index (`LinkIndex`) can look into every card directory.
    func link(of id: String, in level: Level) -> CardLink? {
        guard let levelDirectory = openFD(level) else { return nil }
        for name in [Store.reverseFileName, Store.clozeFileName] {
            guard let st = try? FileSystem.status(id + "/" + name, in: levelDirectory) else { continue }
            guard let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelDirectory) else { return nil }
            defer { directory.close() }
            let kind: EntryKind = st.kind == .symlink ? .symlink : .file
            let relative = level.name + "/" + id
            if name == Store.reverseFileName {
                guard case .success(let named) = readReverseFile(in: directory, kind: kind, cardRelative: relative) else { return nil }
                return .reverse(of: named)
            }
            guard case .success(let link) = readClozeFile(in: directory, kind: kind, cardRelative: relative) else { return nil }
            return .cloze(link)
        }
        return nil
    }

    /// Writes a new card that names another under `.leitner/tmp/add-ID` (or a batch's directory,
    /// `BATCH/add-ID`): a reverse card's `reverse-of` (R28), a cloze card's `cloze-of` (R30), and
    /// `tags` when there are some.
    func stageLinkCard(_ id: String, file: (name: String, text: String), level: Level, tags: [String],
                       typeAnswer: Bool = false, synced: Bool, in batch: String? = nil) throws(BoxError) -> StagedCard {
        let staged = batch.map { $0 + "/add-" + id } ?? "add-" + id
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

extension CardSource {
    /// The text of a small file that makes a card directory name another (`reverse-of`,
    /// `cloze-of`), at most `Store.maxLinkFileSize` bytes of `what`. Opened as a side is, so
    /// that a link leading out of the store is never read (R22).
    func readLinkFile(_ name: String, what: String, in directory: FileDescriptor, kind: EntryKind,
                      cardRelative: String) -> Result<String, CardDamage> {
        openSide(name, kind: kind, in: directory, cardRelative: cardRelative).flatMap { opened in
            defer { opened.file.close() }
            guard Int(opened.status.st_size) <= Store.maxLinkFileSize else {
                return .failure("too large for \(what) (\(opened.status.st_size) bytes)")
            }
            // As much as it holds when opened, in one read, as a side is read (a cloze card's
            // `cloze-of` is read at every `Show` of it).
            do { return .success(String(decoding: try opened.file.read(upTo: max(1, Int(opened.status.st_size))), as: UTF8.self)) } catch {
                return .failure("cannot read: \(error)")
            }
        }
    }
}
