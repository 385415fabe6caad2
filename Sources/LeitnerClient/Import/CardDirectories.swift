import Glibc
import LeitnerCore
import LeitnerSystem

/// The cards of an import directory, in any of the layouts a person or `export --dir` makes:
///
/// - loose pairs `NAME-front.EXT` and `NAME-back.EXT` (`DirectoryPairs`, as R14 adopts them);
/// - card directories `ID/front.EXT` and `ID/back.EXT` (what `export --dir` writes);
/// - level directories `LEVEL/ID/…` (what `export --dir --with-levels` writes, a store's
///   layout): the level is kept in the record, for `import --with-levels`.
///
/// A card directory is read as the store reads one (docs/store-format.md): a `reverse-of` or
/// `cloze-of` in place of the sides makes a reverse or cloze card (R28, R30), `tags` gives its
/// tags, `type-answer` asks for typing (R32), and pictures and sounds beside the sides are its
/// media (R31). `notes/NOTE/` holds the notes of the cloze cards, as in a store.
///
/// Hidden entries (`.leitner/`, editors' files) are ignored.
public enum CardDirectories {
    /// Reads `path`.
    /// - Throws: `Errno` when a directory cannot be read.
    public static func read(_ path: String) throws(Errno) -> (records: [ImportRecord], problems: [ImportProblem]) {
        let root = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let directory = try FileDescriptor.openDirectory(root)
        defer { directory.close() }
        let entries = try FileSystem.list(directory).filter { !$0.name.hasPrefix(".") }
        var (records, problems) = DirectoryPairs.pair(fileNames: entries.filter { $0.kind != .directory }.map(\.name),
                                                      directory: root)
        for entry in entries.sorted(by: { $0.name < $1.name }) where isDirectory(entry, in: directory) {
            if entry.name == CardLayout.notesDirectory {
                let notesDirectory = try FileDescriptor.openDirectory(entry.name, relativeTo: directory)
                defer { notesDirectory.close() }
                for note in try FileSystem.list(notesDirectory).sorted(by: { $0.name < $1.name })
                where !note.name.hasPrefix(".") && isDirectory(note, in: notesDirectory) {
                    add(try self.note(note.name, in: notesDirectory, path: root + "/" + entry.name + "/" + note.name),
                        level: nil, to: &records, &problems)
                }
            } else if let level = Level(name: entry.name) {
                let levelDirectory = try FileDescriptor.openDirectory(entry.name, relativeTo: directory)
                defer { levelDirectory.close() }
                for card in try FileSystem.list(levelDirectory).sorted(by: { $0.name < $1.name })
                where !card.name.hasPrefix(".") && isDirectory(card, in: levelDirectory) {
                    let found = try self.card(card.name, in: levelDirectory, path: root + "/" + entry.name + "/" + card.name)
                    add(found, level: level.name, to: &records, &problems)
                }
            } else {
                let found = try card(entry.name, in: directory, path: root + "/" + entry.name)
                add(found, level: nil, to: &records, &problems)
            }
        }
        // An id found twice (in two levels, or as a pair and a directory) is a bad entry. Notes
        // have ids of their own, beside the cards'.
        var seen: [String: ImportLocation] = [:]
        var unique: [ImportRecord] = []
        for record in records {
            guard let id = record.id, record.kind != .note else { unique.append(record); continue }
            if let first = seen[id] {
                problems.append(ImportProblem(location: record.location, reason: "card '\(id)' is also at \(first)"))
            } else {
                seen[id] = record.location
                unique.append(record)
            }
        }
        return (unique, problems)
    }

    private static func add(_ found: Result<ImportRecord, ImportProblem>, level: String?,
                            to records: inout [ImportRecord], _ problems: inout [ImportProblem]) {
        switch found {
        case .success(var record):
            record.level = level
            records.append(record)
        case .failure(let problem):
            problems.append(problem)
        }
    }

    /// The card in directory `name`: exactly one `front.EXT` and one `back.EXT`, or a
    /// `reverse-of` or `cloze-of` and no side; a valid id.
    private static func card(_ name: String, in parent: FileDescriptor, path: String) throws(Errno) -> Result<ImportRecord, ImportProblem> {
        let location = ImportLocation.file(path)
        if let reason = CardID.problem(name) {
            return .failure(ImportProblem(location: location, reason: "invalid card id '\(name)': \(reason)"))
        }
        let directory = try FileDescriptor.openDirectory(name, relativeTo: parent)
        defer { directory.close() }
        let names = try FileSystem.list(directory).map(\.name)
        let extras = try extraFiles(names, in: directory, path: path)
        func linked(_ kind: ImportRecord.Kind) -> Result<ImportRecord, ImportProblem> {
            if let side = names.first(where: { isSide($0, "front") || isSide($0, "back") }) {
                return .failure(ImportProblem(location: location, reason: "both a \(linkFile(kind)) and a side, '\(side)'"))
            }
            return .success(ImportRecord(location: location, id: name, front: .text("", extension: "txt"), back: .text("", extension: "txt"),
                                         tags: extras.tags, kind: kind, typeAnswer: extras.typeAnswer))
        }
        if names.contains(CardLayout.reverseFile) {
            let original = CardLayout.reverseOf(fileText: try readText(CardLayout.reverseFile, in: directory))
            if let reason = CardID.problem(original) {
                return .failure(ImportProblem(location: .file(path + "/" + CardLayout.reverseFile), reason: "names no card: \(reason)"))
            }
            return linked(.reverse(of: original))
        }
        if names.contains(CardLayout.clozeFile) {
            switch CardLayout.clozeOf(fileText: try readText(CardLayout.clozeFile, in: directory)) {
            case .success(let link): return linked(.cloze(link))
            case .failure(let problem):
                return .failure(ImportProblem(location: .file(path + "/" + CardLayout.clozeFile), reason: problem.reason))
            }
        }
        var sides: [String] = []
        for side in ["front", "back"] {
            let found = names.filter { isSide($0, side) }
            guard found.count == 1 else {
                let reason = found.isEmpty ? "no \(side).EXT file" : "\(found.count) \(side) files: \(found.sorted().joined(separator: ", "))"
                return .failure(ImportProblem(location: location, reason: reason))
            }
            sides.append(path + "/" + found[0])
        }
        return .success(ImportRecord(location: location, id: name, front: .file(path: sides[0]), back: .file(path: sides[1]),
                                     tags: extras.tags, typeAnswer: extras.typeAnswer, media: extras.media))
    }

    /// The note in directory `name` of `notes/`: its text (`text.md` or `text.txt`), its extra,
    /// tags, `type-answer` and media.
    private static func note(_ name: String, in parent: FileDescriptor, path: String) throws(Errno) -> Result<ImportRecord, ImportProblem> {
        let location = ImportLocation.file(path)
        if let reason = CardID.problem(name) {
            return .failure(ImportProblem(location: location, reason: "invalid note id '\(name)': \(reason)"))
        }
        let directory = try FileDescriptor.openDirectory(name, relativeTo: parent)
        defer { directory.close() }
        let names = try FileSystem.list(directory).map(\.name)
        let texts = CardLayout.noteTexts.filter(names.contains)
        guard texts.count == 1 else {
            return .failure(ImportProblem(location: location, reason: texts.isEmpty ? "no text.md or text.txt" : "both text.md and text.txt"))
        }
        let extras = try extraFiles(names, in: directory, path: path)
        let extra: ImportSide = names.contains(CardLayout.noteExtra) ? .file(path: path + "/" + CardLayout.noteExtra) : .text("", extension: "md")
        return .success(ImportRecord(location: location, id: name, front: .file(path: path + "/" + texts[0]), back: extra,
                                     tags: extras.tags, kind: .note, typeAnswer: extras.typeAnswer, media: extras.media))
    }

    private static func linkFile(_ kind: ImportRecord.Kind) -> String {
        if case .cloze = kind { return CardLayout.clozeFile }
        return CardLayout.reverseFile
    }

    /// A card's or a note's files beside its text: its tags (valid ones, R25), whether it holds
    /// `type-answer`, and the paths of its pictures and sounds (names `MediaName` takes, not
    /// hidden, so a sync tool's temporary or an editor's backup is left out).
    private static func extraFiles(_ names: [String], in directory: FileDescriptor, path: String) throws(Errno)
        -> (tags: [String], typeAnswer: Bool, media: [String]) {
        let tags = names.contains(CardTag.fileName) ? CardTag.parse(try readText(CardTag.fileName, in: directory)).tags : []
        let media = names.sorted().filter { name in
            MediaName.problem(name) == nil && MediaName.kind(ofMediaType: MediaType.of(fileName: name)) != nil
                && !isSide(name, "front") && !isSide(name, "back")
        }
        return (tags, names.contains(TypedAnswer.fileName), media.map { path + "/" + $0 })
    }

    /// A small text file of a card directory (`tags`, a link), read as UTF-8.
    private static func readText(_ name: String, in directory: FileDescriptor) throws(Errno) -> String {
        String(decoding: try FileSystem.readFile(name, in: directory, limit: CardTag.maxFileSize), as: UTF8.self)
    }

    /// `front.EXT`, the extension letters and digits (not an editor's `front.txt~`).
    public static func isSide(_ name: String, _ side: String) -> Bool {
        guard name.hasPrefix(side + ".") else { return false }
        let ext = name.dropFirst(side.count + 1)
        return !ext.isEmpty && ext.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    private static func isDirectory(_ entry: DirectoryEntry, in parent: FileDescriptor) -> Bool {
        if entry.kind == .directory { return true }
        guard entry.kind == .unknown || entry.kind == .symlink, let st = try? FileSystem.status(entry.name, in: parent) else { return false }
        return st.st_mode & S_IFMT == S_IFDIR
    }
}
