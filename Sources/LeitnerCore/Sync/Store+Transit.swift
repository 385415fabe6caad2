import LeitnerSystem

/// Reading a store a sync tool is changing (docs/sync.md, "A store a sync tool is changing"):
/// when a hand move was made, which copies of a card hold only a part of it, and merging such a
/// partial delivery's sides into the copy kept.
extension Store {
    /// The change time of the directory of `id` in `level`, in ms since the epoch: for a card a
    /// person moved with `mv`, when the move was made (a `rename` sets it). Nil when it cannot
    /// be read.
    func changeTime(of id: String, in level: Level) -> Int64? {
        guard let levelFD = openFD(level), let st = try? FileSystem.status(id, in: levelFD) else { return nil }
        return Int64(st.st_ctim.tv_sec) * 1000 + Int64(st.st_ctim.tv_nsec) / 1_000_000
    }

    /// True when the directory of `id` in `level` lacks a front or a back (sync tools' temporary
    /// files and conflict copies are not sides): a partial delivery, or what a sync left of a
    /// folder moved on one machine and edited on another. A reverse card's directory (R28) is
    /// whole with its `reverse-of` alone: it has no sides of its own. False when it cannot be read.
    func isPartial(_ id: String, in level: Level) -> Bool {
        guard let levelFD = openFD(level), let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelFD) else { return false }
        defer { directory.close() }
        guard let entries = try? FileSystem.list(directory) else { return false }
        if entries.contains(where: { $0.name == Store.reverseFileName }) { return false }
        let sides = Set(entries.compactMap { Store.side(ofFile: $0.name) })
        return sides.count < SideName.allCases.count
    }

    /// Merges the partial copy of `id` in `partial` into its copy in `kept`, then removes the
    /// partial copy: each side file it holds takes that side's place in the kept copy when it
    /// differs and is newer by modification time (a tie: the greater bytes win). One `rename` per
    /// side, and each directory synced. Two devices holding the same files make the same merge.
    /// - Returns: the change of the level served, if the partial copy was the one served.
    /// - Throws: `storeFailure` naming the path when a step fails.
    func mergePartial(_ id: String, from partial: Level, into kept: Level) throws(BoxError) -> HandChange? {
        let sourcePath = path(of: id, in: partial), targetPath = path(of: id, in: kept)
        do {
            let source = try FileDescriptor.openDirectory(id, relativeTo: try fd(partial))
            defer { source.close() }
            let target = try FileDescriptor.openDirectory(id, relativeTo: try fd(kept))
            defer { target.close() }
            let theirs = try FileSystem.list(target)
            var changed = false
            for entry in try FileSystem.list(source) {
                // The sides, and the card's tags (R25: content like its sides).
                let side = Store.side(ofFile: entry.name)
                guard side != nil || entry.name == CardTag.fileName else { continue }
                let incoming = try FileSystem.status(entry.name, in: source)
                guard incoming.isRegularFile else { continue }
                let current = theirs.first { existing in
                    side.map { Store.side(ofFile: existing.name) == $0 } ?? (existing.name == entry.name)
                }
                if let current {
                    let existing = try FileSystem.status(current.name, in: target)
                    if try !Store.isNewer(entry.name, incoming, in: source, than: current.name, existing, in: target) { continue }
                }
                try FileSystem.rename(entry.name, in: source, to: entry.name, in: target, replacing: true)
                if let current, current.name != entry.name { try FileSystem.removeFile(current.name, in: target) }
                changed = true
            }
            if changed { try target.sync() }
            try source.sync()
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.rename, sourcePath, error, doing: "cannot merge into '\(targetPath)'")
        }
        return try setAside(id, in: partial, keep: false)
    }

    /// Takes the `tags` file of the copy of `id` in `other` into the copy kept in `kept` when it
    /// differs and is newer (as `mergePartial` takes a side): a tag edited on one machine and a
    /// grade that moved the card on the other both survive (R25). Run before the two copies are
    /// compared, so that copies differing in their tags alone are then the same. Two devices
    /// holding the same files make the same merge.
    /// - Returns: true when the kept copy's tags changed.
    func mergeTags(_ id: String, from other: Level, into kept: Level) throws(BoxError) -> Bool {
        let sourcePath = path(of: id, in: other), targetPath = path(of: id, in: kept)
        do {
            let source = try FileDescriptor.openDirectory(id, relativeTo: try fd(other))
            defer { source.close() }
            let target = try FileDescriptor.openDirectory(id, relativeTo: try fd(kept))
            defer { target.close() }
            guard let incoming = try? FileSystem.status(CardTag.fileName, in: source), incoming.isRegularFile else { return false }
            if let existing = try? FileSystem.status(CardTag.fileName, in: target) {
                guard existing.isRegularFile,
                      try Store.isNewer(CardTag.fileName, incoming, in: source, than: CardTag.fileName, existing, in: target) else {
                    return false
                }
            }
            // A link, not a rename: the other copy stays whole until it is set aside.
            let staged = CardTag.fileName + ".merged"
            try? FileSystem.removeFile(staged, in: target)
            try FileSystem.link(CardTag.fileName, in: source, as: staged, in: target)
            try FileSystem.rename(staged, in: target, to: CardTag.fileName, in: target, replacing: true)
            try target.sync()
            return true
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.rename, sourcePath + "/" + CardTag.fileName, error, doing: "cannot merge into '\(targetPath)'")
        }
    }

    /// True when file `name` (status `st`) in `directory` should replace `otherName` in `other`:
    /// its content differs, and it is newer, or as new with greater bytes.
    private static func isNewer(_ name: String, _ st: FileStatus, in directory: FileDescriptor,
                                than otherName: String, _ other: FileStatus, in otherDirectory: FileDescriptor) throws(Errno) -> Bool {
        let mine = try FileSystem.readFile(name, in: directory)
        let theirs = try FileSystem.readFile(otherName, in: otherDirectory)
        if mine == theirs && name == otherName { return false }
        let a = (Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec))
        let b = (Int64(other.st_mtim.tv_sec), Int64(other.st_mtim.tv_nsec))
        if a != b { return a > b }
        return theirs.lexicographicallyPrecedes(mine) || (mine == theirs && otherName.utf8.lexicographicallyPrecedes(name.utf8))
    }
}

extension Store {
    /// True when the directory of `id` in `level` came there whole, by one `rename` (a person's
    /// `mv`), rather than made and filled file by file (a sync tool's delivery): its change time
    /// is later than that of every file in it, by more than half a second. Making or renaming a
    /// file in a directory sets the directory's change time too, so a folder filled file by file
    /// has its last file's change time.
    func cameWhole(_ id: String, in level: Level) -> Bool {
        guard let levelFD = openFD(level), let st = try? FileSystem.status(id, in: levelFD),
              let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelFD) else { return false }
        defer { directory.close() }
        guard let entries = try? FileSystem.list(directory), !entries.isEmpty else { return false }
        let moved = Int64(st.st_ctim.tv_sec) * 1000 + Int64(st.st_ctim.tv_nsec) / 1_000_000
        for entry in entries {
            guard let file = try? FileSystem.status(entry.name, in: directory) else { return false }
            let changed = Int64(file.st_ctim.tv_sec) * 1000 + Int64(file.st_ctim.tv_nsec) / 1_000_000
            if moved - changed <= 500 { return false }
        }
        return true
    }
}
