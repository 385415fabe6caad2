import Glibc
import LeitnerSystem

/// Many new cards in one change (`AddMany`, and `AddClozes` with their notes): every card is written under a directory of its
/// batch in `.leitner/tmp/batches/`, all of them made durable by one `syncfs`, the batch's
/// record written and synced (`BatchRecord`), then every card renamed into its level and the
/// log lines appended in one write; a checkpoint ends the batch. A thousand cards cost a handful of flushes instead of four per card.
///
/// A crash at any instant leaves each card whole or absent (R18): before the record is synced,
/// nothing of the batch is in a level and the staged cards are dropped at open; after it, the
/// next open finishes every rename the crash cut off (`repairBatch`).
extension Store {
    /// A card of a batch, written under `.leitner/tmp/` and not yet in its level.
    struct StagedCard {
        var staged: String
        var id: String
        var level: Level
    }

    /// Where the batches' directories are made, in `.leitner/tmp/`.
    static let batchesDirectoryName = "batches"

    /// Makes the directory a batch stages its cards in, `.leitner/tmp/batches/NAME` (NAME
    /// random), and returns its path in `.leitner/tmp/`.
    ///
    /// `batches` is a plain directory. It carried ext4's top-of-a-tree flag (`chattr +T`) for a
    /// while, so that each batch's cards were made in a little-used block group rather than in
    /// `tmp/`'s: measured, that doubled the import of 100,000 cards on a quiet machine (12.9 s to
    /// 25.5 s beside an unchanged floor) and made 20,000 staged cards 1.2–3.4 times slower under
    /// load, ext4 picking for them the groups that the last deletions had just emptied
    /// (docs/performance.md, "Import").
    func makeBatchDirectory() throws(BoxError) -> String {
        let batches = Store.batchesDirectoryName
        do { try FileSystem.makeDirectory(batches, in: stagingFD, mode: 0o700, existingOK: true) } catch {
            throw .failing(.create, statePath + "/tmp/" + batches, error)
        }
        let name: String
        do { name = batches + "/" + (try RandomBytes.hex(8)) } catch {
            throw .failing(.create, statePath + "/tmp/" + batches, error)
        }
        do { try FileSystem.makeDirectory(name, in: stagingFD, mode: 0o700) } catch {
            throw .failing(.create, statePath + "/tmp/" + name, error)
        }
        return name
    }

    /// Removes a batch's directory once its cards are renamed into their levels or dropped,
    /// and `batches` with it when no other is there. One still holding a card (a batch whose
    /// record the next open finishes) stays; the open clears `.leitner/tmp` after its repair.
    func removeBatchDirectory(_ name: String) {
        guard (try? FileSystem.removeDirectory(name, in: stagingFD)) != nil else { return }
        try? FileSystem.removeDirectory(Store.batchesDirectoryName, in: stagingFD)
    }

    /// Writes a new card's files under `BATCH/add-ID` (`makeBatchDirectory`), unsynced:
    /// `commitBatch` syncs the whole batch at once. Each of `shared` is a file an earlier card
    /// of the batch staged (`from`, its staged directory) with the same bytes — a picture many
    /// notes show: it is hard-linked rather than written again, or written when the file system
    /// links no files. Each of `held` is a medium a card of an earlier batch holds (`card`):
    /// linked from that card's directory when its file there still has these bytes
    /// (`linkHeld`), else written. Each card's directory still holds every file its sides name
    /// (R31); the box never writes into a card's file in place (an edit writes a new file,
    /// `replaceFiles`), so a change to one card's file never shows in another's.
    func stageBatchCard(_ id: String, level: Level, in batch: String, files: [(name: String, bytes: [UInt8])],
                        shared: [(name: String, bytes: [UInt8], from: String)] = [],
                        held: [(name: String, bytes: [UInt8], card: String)] = []) throws(BoxError) -> StagedCard {
        let staged = batch + "/add-" + id
        do {
            do { try FileSystem.makeDirectory(staged, in: stagingFD) } catch where error == .exists {
                // Left by a batch that failed: no stat per card to look for one first.
                try FileSystem.removeTree(staged, in: stagingFD)
                try FileSystem.makeDirectory(staged, in: stagingFD)
            }
            var copies: [(name: String, bytes: [UInt8])] = []
            for file in shared {
                do { try FileSystem.link(file.from + "/" + file.name, in: stagingFD, as: staged + "/" + file.name, in: stagingFD) } catch {
                    copies.append((file.name, file.bytes))
                }
            }
            for file in held where !linkHeld(file.name, bytes: file.bytes, of: file.card, as: staged + "/" + file.name) {
                copies.append((file.name, file.bytes))
            }
            try writeStagedFiles(staged, files + copies, sync: false)
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw .failing(.write, statePath + "/tmp/" + staged, error)
        }
        return StagedCard(staged: staged, id: id, level: level)
    }

    /// Links the medium `name` of the card `card` as `staged` in `.leitner/tmp/`, when that card
    /// is in the box and its file is a regular file holding exactly `bytes` — a hand may have
    /// changed or replaced it since the box wrote it. The file is read and compared, then linked
    /// through the descriptor it was read from, so that the file linked is the file compared.
    /// False when it is not, or cannot be linked: the caller writes the bytes instead.
    private func linkHeld(_ name: String, bytes: [UInt8], of card: String, as staged: String) -> Bool {
        guard let level = level(of: card), let levelFD = openFD(level),
              let directory = try? FileDescriptor.openDirectory(card, relativeTo: levelFD) else { return false }
        defer { directory.close() }
        // Not blocking on a FIFO put there by hand.
        guard let file = try? FileDescriptor.open(name, relativeTo: directory, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return false }
        defer { file.close() }
        guard let st = try? file.status(), st.st_mode & S_IFMT == S_IFREG, Int(st.st_size) == bytes.count,
              (try? file.readAll(limit: bytes.count)) == bytes else { return false }
        return (try? FileSystem.link(file, as: staged, in: stagingFD)) != nil
    }

    /// Drops staged cards whose batch will not be committed.
    func discardStaged(_ cards: [StagedCard]) {
        for card in cards { try? FileSystem.removeTree(card.staged, in: stagingFD) }
    }

    /// Drops a staged note (R30) that was not put in place.
    func discardStaged(note: StagedNote) { try? FileSystem.removeTree(note.staged, in: stagingFD) }

    /// Puts a batch of staged cards in place, durably (R17): one sync of the staged files, the
    /// batch's record synced, the renames, the log lines, then a checkpoint. `notes`, the staged
    /// notes (R30) whose cards are among `cards` (`AddClozes`), are renamed into `notes/` first,
    /// so that no card is ever in a level before its note. When a step before the last rename
    /// fails, what was done is undone, the record removed and the staged cards and notes dropped:
    /// the request fails with `storeFailure` and changes nothing (R16).
    func commitBatch(_ cards: [StagedCard], notes: [StagedNote] = [], journal entries: [LogEntry]) throws(BoxError) {
        guard !cards.isEmpty else { return }
        func discard() {
            discardStaged(cards)
            for note in notes { discardStaged(note: note) }
        }
        var notesFD: FileDescriptor?
        do throws(BoxError) {
            try log.checkWritable()
            if !notes.isEmpty { notesFD = try notesDirectory() }
        } catch {
            discard()
            throw error
        }
        defer { notesFD?.close() }
        // 1. The staged cards' files and directories, in one flush of the file system. It syncs
        //    the log's pending lines too, so the record may say the batch's lines go at its end.
        do { try stagingFD.syncFileSystem() } catch {
            discard()
            throw .failing(.sync, statePath + "/tmp", error)
        }
        // 2. The record: from here on the batch is carried out, now or by the next open.
        let logBytes = ReviewLog.encode(entries)
        let intents = notes.map { JournalIntent.addNote(staged: $0.staged, id: $0.id) }
            + cards.map { JournalIntent.add(staged: $0.staged, id: $0.id, to: $0.level) }
        let record = BatchRecord(logOffset: log.size, logBytes: logBytes, intent: JournalIntent.encode(intents))
        do { try record.write(in: stateFD) } catch {
            try? BatchRecord.remove(in: stateFD)
            discard()
            throw .failing(.write, statePath + "/" + BatchRecord.fileName, error)
        }
        // 3. The renames, the notes first, then the lines: a batch whose lines are in the log is finished.
        var placedNotes: [StagedNote] = []
        var placed: [StagedCard] = []
        do throws(BoxError) {
            if let notesFD {
                for note in notes {
                    do throws(Errno) {
                        try FileSystem.rename(note.staged, in: stagingFD, to: note.id, in: notesFD)
                    } catch {
                        if error == .exists || error == .notEmpty {
                            throw BoxError.storeFailure(path: notePath(note.id), reason: "cannot create: a note of that name appeared meanwhile")
                        }
                        throw BoxError.failing(.rename, notePath(note.id), error, doing: "cannot create")
                    }
                    placedNotes.append(note)
                }
            }
            for card in cards {
                let target = try fd(card.level)
                do throws(Errno) {
                    try FileSystem.rename(card.staged, in: stagingFD, to: card.id, in: target)
                } catch {
                    if error == .exists {
                        throw BoxError.storeFailure(path: path(of: card.id, in: card.level),
                                                    reason: "cannot create: a card of that name appeared meanwhile")
                    }
                    throw BoxError.failing(.rename, path(of: card.id, in: card.level), error, doing: "cannot create")
                }
                placed.append(card)
            }
            try log.appendRecorded(logBytes)
        } catch {
            withdrawBatch(placed: placed, all: cards, placedNotes: placedNotes, notes: notes, in: notesFD)
            throw error
        }
        for card in cards { setLevel(card.id, card.level) }
        for note in notes { publishNote(note.id) }
        // 4. The checkpoint syncs the renames and the lines and removes the record. Should it fail,
        //    the record stays for the next open to finish, and no later change may be journaled
        //    after it (the open redoes the journal before the batch): changes are refused until then.
        do { try checkpoint() } catch {
            log.refuseChanges("the checkpoint after a batch of new cards failed (\(error))", after: error)
        }
    }

    /// Takes back a batch that could not be carried out: the cards renamed so far go back to
    /// `.leitner/tmp/`, then the notes, the record is removed (synced), the staged cards and
    /// notes dropped. If the record cannot be removed, the next open would finish the batch:
    /// changes are refused until then.
    private func withdrawBatch(placed: [StagedCard], all cards: [StagedCard], placedNotes: [StagedNote], notes: [StagedNote],
                               in notesFD: FileDescriptor?) {
        do throws(Errno) {
            for card in placed.reversed() {
                guard let target = openFD(card.level) else { throw Errno.notDirectory }
                try FileSystem.rename(card.id, in: target, to: card.staged, in: stagingFD)
            }
            for note in placedNotes.reversed() {
                guard let notesFD else { throw Errno.notDirectory }
                try FileSystem.rename(note.id, in: notesFD, to: note.staged, in: stagingFD)
            }
            try BatchRecord.remove(in: stateFD)
            try stateFD.sync()
        } catch {
            log.refuseChanges("a failed batch of new cards could not be taken back from '\(statePath)/\(BatchRecord.fileName)' (\(error))",
                              after: error)
            return
        }
        discardStaged(cards)
        for note in notes { discardStaged(note: note) }
    }

    /// At open (R18): finishes the batch a crash cut off, if any. A record whose lines the log
    /// holds was finished; otherwise its lines are written back into the log and each card still
    /// staged, whose id no card has, is renamed into its level. The record itself is removed by
    /// the checkpoint that ends the repair.
    func repairBatch() throws(BoxError) {
        guard let record = BatchRecord.read(in: stateFD) else { return }
        guard try log.restore(record.logBytes, at: record.logOffset) == false else { return }
        for intent in JournalIntent.decode(record.intent) {
            if case .addNote(let staged, let id) = intent {
                // A note of the batch (`AddClozes`), renamed before its cards.
                guard !hasNote(id), FileSystem.exists(staged, in: stagingFD) else { continue }
                let notes = try notesDirectory()
                defer { notes.close() }
                try Store.failing(.rename, notePath(id), doing: "cannot finish an interrupted batch of new notes") { () throws(Errno) in
                    try FileSystem.rename(staged, in: stagingFD, to: id, in: notes)
                }
                continue
            }
            guard case .add(let staged, let id, let to) = intent,
                  level(of: id) == nil, FileSystem.exists(staged, in: stagingFD) else { continue }
            let directory = try fd(to)
            try Store.failing(.rename, path(of: id, in: to), doing: "cannot finish an interrupted batch of new cards") { () throws(Errno) in
                try FileSystem.rename(staged, in: stagingFD, to: id, in: directory)
            }
            setLevel(id, to)
        }
    }
}
