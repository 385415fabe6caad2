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
            if let level = Level(name: entry.name) {
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
        // An id found twice (in two levels, or as a pair and a directory) is a bad entry.
        var seen: [String: ImportLocation] = [:]
        var unique: [ImportRecord] = []
        for record in records {
            guard let id = record.id else { unique.append(record); continue }
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

    /// The card in directory `name`: exactly one `front.EXT` and one `back.EXT`, a valid id.
    private static func card(_ name: String, in parent: FileDescriptor, path: String) throws(Errno) -> Result<ImportRecord, ImportProblem> {
        let location = ImportLocation.file(path)
        if let reason = CardID.problem(name) {
            return .failure(ImportProblem(location: location, reason: "invalid card id '\(name)': \(reason)"))
        }
        let directory = try FileDescriptor.openDirectory(name, relativeTo: parent)
        defer { directory.close() }
        let names = try FileSystem.list(directory).map(\.name)
        var sides: [String] = []
        for side in ["front", "back"] {
            let found = names.filter { isSide($0, side) }
            guard found.count == 1 else {
                let reason = found.isEmpty ? "no \(side).EXT file" : "\(found.count) \(side) files: \(found.sorted().joined(separator: ", "))"
                return .failure(ImportProblem(location: location, reason: reason))
            }
            sides.append(path + "/" + found[0])
        }
        return .success(ImportRecord(location: location, id: name, front: .file(path: sides[0]), back: .file(path: sides[1])))
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
