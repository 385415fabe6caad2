import LeitnerSystem

/// A card's sync conflicts (docs/sync.md): the conflict copies of its sides a sync tool left
/// beside them, and git's conflict markers in its text sides. They are reported with the command
/// that keeps one side, and that command's work: renames and rewrites in the card's directory,
/// each atomic and synced, never touching another card.
extension Store {
    /// The problems of card `id`'s conflicts known from its last read.
    func syncConflictProblems(of id: String) -> [StoreProblem] {
        guard let level = level(of: id) else { return [] }
        let cardPath = path(of: id, in: level)
        let copies = conflictCopies(of: id)
        var problems: [StoreProblem] = []
        for name in copies {
            guard let artifact = SyncArtifact(fileName: name), let original = artifact.original else { continue }
            let side = Store.side(ofFile: original)
            let siblings = copies.filter { SyncArtifact(fileName: $0)?.original.flatMap(Store.side(ofFile:)) == side }
            let keep = siblings.count == 1 ? "mine|theirs" : "mine|'\(name)'"
            problems.append(StoreProblem(
                kind: .syncConflict, path: cardPath + "/" + name,
                reason: "a conflict copy of '\(original)' left by \(artifact.tool.rawValue)",
                advice: "keep one side: leitnerctl doctor --resolve \(id) --keep \(keep)"))
        }
        for name in conflictMarkers(of: id) ?? [] {
            problems.append(StoreProblem(
                kind: .syncConflict, path: cardPath + "/" + name,
                reason: "git's conflict markers (<<<<<<<, =======, >>>>>>>) in the text",
                advice: "keep one side of each conflict: leitnerctl doctor --resolve \(id) --keep mine|theirs"))
        }
        return problems
    }

    /// Keeps one side of card `id`'s conflicts. With conflict copies of its sides: `mine` keeps
    /// the sides as they are and removes the copies; `theirs` puts the one copy of each side in
    /// the side's place; a copy's file name puts that copy in its side's place and removes the
    /// other copies of that side. Without copies, git's conflict markers in its text sides: each
    /// conflicting hunk is replaced by `mine` or `theirs` side, the file rewritten atomically.
    /// Each change is a rename or an atomic rewrite, followed by a sync of the card's directory.
    /// - Returns: the paths kept (in their side's place) and the paths removed.
    /// - Throws: `cannotResolve` when there is no conflict or `keep` does not fit it; `storeFailure`
    ///   naming the file when a rename, a removal or a write fails.
    func resolveConflict(_ id: String, keep: ConflictResolution) throws(BoxError) -> (kept: [String], removed: [String]) {
        guard let level = level(of: id) else { throw .noSuchCard(id: id) }
        let cardPath = path(of: id, in: level)
        let directory: FileDescriptor
        var names: [String]
        do {
            directory = try FileDescriptor.openDirectory(id, relativeTo: try fd(level))
            do { names = try FileSystem.list(directory).map(\.name) } catch {
                directory.close()
                throw error
            }
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.list, cardPath, error, doing: "cannot read the card directory")
        }
        defer { directory.close() }
        names.sort()
        var sides: [SideName: [String]] = [:]
        var copies: [SideName: [String]] = [:]
        for name in names {
            if let side = Store.side(ofFile: name) {
                sides[side, default: []].append(name)
            } else if let side = SyncArtifact(fileName: name)?.original.flatMap(Store.side(ofFile:)) {
                copies[side, default: []].append(name)
            }
        }
        var kept: [String] = [], removed: [String] = []
        func fail(_ name: String, _ operation: StoreOperation, _ error: Errno, doing: String? = nil) -> BoxError {
            .failing(operation, cardPath + "/" + name, error, doing: doing)
        }
        if !copies.isEmpty {
            // What to put in each side's place (nil: the side as it is).
            var chosen: [SideName: String?] = [:]
            switch keep {
            case .mine:
                for side in copies.keys.sorted(by: { $0.rawValue > $1.rawValue }) where sides[side]?.count != 1 {
                    throw .cannotResolve(id: id, reason: "no single \(side.rawValue) file of its own to keep: keep a copy by its name")
                }
                for side in copies.keys { chosen[side] = .some(nil) }
            case .theirs:
                for (side, names) in copies.sorted(by: { $0.key.rawValue > $1.key.rawValue }) {
                    guard names.count == 1 else {
                        throw .cannotResolve(id: id, reason: "\(names.count) copies of its \(side.rawValue): keep one by its name")
                    }
                    chosen[side] = names[0]
                }
            case .copy(let name):
                guard let side = copies.first(where: { $0.value.contains(name) })?.key else {
                    throw .cannotResolve(id: id, reason: "'\(name)' is not a conflict copy in '\(cardPath)': keep mine, theirs or a copy's file name")
                }
                chosen[side] = name
            }
            for side in SideName.allCases {
                guard let choice = chosen[side] else { continue }
                var losers = copies[side] ?? []
                if let copy = choice {
                    losers.removeAll { $0 == copy }
                    // The copy takes the side's name, with its own extension: one rename over the
                    // side when the extensions agree (the usual case), else the old side goes after.
                    let ext = MediaType.fileExtension(copy).map { "." + $0 } ?? ""
                    let target = side.rawValue + ext
                    do { try FileSystem.rename(copy, in: directory, to: target, in: directory, replacing: true) } catch {
                        throw fail(copy, .rename, error, doing: "cannot rename to '\(target)'")
                    }
                    kept.append(cardPath + "/" + target)
                    losers += (sides[side] ?? []).filter { $0 != target }
                } else if let mine = sides[side]?.first {
                    kept.append(cardPath + "/" + mine)
                }
                for loser in losers {
                    do { try FileSystem.removeFile(loser, in: directory) } catch { throw fail(loser, .remove, error) }
                    removed.append(cardPath + "/" + loser)
                }
            }
        } else {
            guard let marker = SyncArtifact.MarkerSide(keep) else {
                throw .cannotResolve(id: id, reason: "git's conflict markers are resolved by keeping mine or theirs, not '\(keep)'")
            }
            for side in SideName.allCases {
                guard let names = sides[side], names.count == 1, let name = names.first,
                      MediaType.isText(MediaType.of(fileName: name)) else { continue }
                let bytes: [UInt8]
                do { bytes = try FileSystem.readFile(name, in: directory, limit: Box.maxAssetSize) } catch {
                    throw fail(name, .read, error)
                }
                guard let resolved = SyncArtifact.resolvingMarkers(String(decoding: bytes, as: UTF8.self), keeping: marker)
                else { continue }
                do { try FileSystem.writeAtomically(Array(resolved.utf8), to: name, in: directory) } catch {
                    throw fail(name, .write, error)
                }
                kept.append(cardPath + "/" + name)
            }
            if kept.isEmpty { throw .cannotResolve(id: id, reason: "no sync conflict in '\(cardPath)'") }
        }
        do { try directory.sync() } catch { throw .failing(.sync, cardPath, error) }
        return (kept, removed)
    }
}
