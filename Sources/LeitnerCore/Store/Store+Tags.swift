import LeitnerSystem

/// A card's tags on disk (R25): the file `tags` in its directory, read with its sides and
/// written as an edit is (the directory copied and exchanged), so that it moves, copies and
/// syncs with the card.
extension CardSource {
    /// Reads a card's `tags` file, opened as a side is (R22: no link out of the store, no FIFO),
    /// at most `CardTag.maxFileSize` bytes of it.
    /// - Parameter seen: given the opened file's status, before it is read.
    /// - Returns: the tags and the bad lines, or why the file cannot be read at all.
    func readTags(_ entry: DirectoryEntry, in cardDirectory: FileDescriptor, cardRelative: String,
                  seen: (FileStatus) -> Void = { _ in }) -> Result<CardTag.Parsed, CardDamage> {
        switch openSide(entry.name, kind: entry.kind, in: cardDirectory, cardRelative: cardRelative) {
        case .success(let opened):
            defer { opened.file.close() }
            seen(opened.status)
            do {
                let bytes = try opened.file.read(upTo: CardTag.maxFileSize)
                return .success(CardTag.parse(String(decoding: bytes, as: UTF8.self)))
            } catch {
                return .failure("cannot read '\(entry.name)': \(error)")
            }
        case .failure(let damage):
            return .failure(damage)
        }
    }
}

extension Store {
    /// Gives the card `id` in `level` the tags `tags` (its whole `tags` file rewritten, bad
    /// lines dropped), journaled as an edit (R17). No tags leaves an empty file rather than
    /// none: a sync tool then carries the untagging with a modification time (docs/sync.md).
    func writeTags(_ id: String, in level: Level, _ tags: [String], journal: [LogEntry]) throws(BoxError) {
        try replaceFiles(id, in: level, leaving: { $0 == CardTag.fileName },
                         writing: [(CardTag.fileName, Array(CardTag.fileText(tags).utf8))], journal: journal)
        publishWritten(id)
    }
}

extension CardSource {
    /// A card's tags alone, for the tag table: one `openat` of `ID/tags` from the level's
    /// directory, which fails at once for a card without tags (most cards), then a read. A `tags`
    /// that is a link or not a plain file is read as `card` reads it (R22), which decides.
    func tagsOnly(of id: String, in level: Level) -> [String] {
        guard let directory = openFD(level) else { return [] }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(id + "/" + CardTag.fileName, relativeTo: directory, .readOnly,
                                           options: [.noFollow, .nonBlocking])
        } catch where error == .noEntry || error == .notDirectory {
            return []
        } catch {
            return readSides(id, in: level, withText: false).tags.tags
        }
        defer { file.close() }
        guard let status = try? file.status(), status.isRegularFile,
              let bytes = try? file.read(upTo: CardTag.maxFileSize) else {
            return readSides(id, in: level, withText: false).tags.tags
        }
        return CardTag.parse(String(decoding: bytes, as: UTF8.self)).tags
    }
}

extension Store {
    /// What `doctor` says of a card's `tags` file, from the read of the card it made: each bad
    /// line as `FILE:LINE`, or the file when it cannot be read. The card is not damaged by it (R25).
    func tagProblems(of id: String, read: SidesRead) -> [StoreProblem] {
        guard let level = level(of: id) else { return [] }
        let cardPath = path(of: id, in: level)
        let file = cardPath + "/" + CardTag.fileName
        if let problem = read.tagsProblem {
            return [StoreProblem(kind: .badTag, path: file, reason: "the tags cannot be read, the card has none meanwhile: \(problem)",
                                 advice: "make it a plain file of tags, one a line")]
        }
        return read.tags.badLines.map { bad in
            // A line of a file written on Windows ends in "\r", which a terminal would print as a
            // return to the line's start over the message: it is no part of what was written.
            let text = bad.text.utf8.last == UInt8(ascii: "\r") ? String(decoding: bad.text.utf8.dropLast(), as: UTF8.self) : bad.text
            return StoreProblem(kind: .badTag, path: "\(file):\(bad.line)",
                                reason: "not a tag, ignored: '\(text)' \(bad.reason)",
                                advice: "write a tag as a card id, parts joined by ':' (ja:kana), or remove the line")
        }
    }
}
