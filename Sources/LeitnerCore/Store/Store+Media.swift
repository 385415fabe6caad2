import LeitnerSystem

/// The media of a side (R31): what its text refers to, found in the directory beside it.
extension CardSource {
    /// The media `text` refers to that are files in `directory` (`relative` to the store's
    /// root, at `path`), read by the rules of a side (R22): a regular file, or a link whose
    /// target stays inside the store. A missing or unreadable file is left out, and the side
    /// shows the reference as text; `doctor` says why (`mediaProblems`).
    func media(of text: String, mediaType: String, in directory: FileDescriptor, path: String,
               relative: String) -> [Medium] {
        guard Store.mayReferToMedia(text, mediaType: mediaType) else { return [] }
        return SideMedia(parsing: text).references.compactMap { reference in
            guard case .success = mediumStatus(reference.name, in: directory, relative: relative) else { return nil }
            return Medium(name: reference.name, mediaType: MediaType.of(fileName: reference.name), path: path + "/" + reference.name)
        }
    }

    /// The media of a cloze card's sides: files of its note's directory.
    func noteMedia(of text: String, mediaType: String, note: String) -> [Medium] {
        // Most notes show no media: their directory is not opened for them.
        guard Store.mayReferToMedia(text, mediaType: mediaType) else { return [] }
        let relative = Store.notesDirectoryName + "/" + note
        guard let directory = try? FileDescriptor.openDirectory(relative, relativeTo: rootFD) else { return [] }
        defer { directory.close() }
        return media(of: text, mediaType: mediaType, in: directory, path: root + "/" + relative, relative: relative)
    }

    /// Whether the medium `name` can be read in `directory`, and why not.
    func mediumStatus(_ name: String, in directory: FileDescriptor, relative: String) -> Result<Void, CardDamage> {
        let kind: EntryKind
        do { kind = try FileSystem.status(name, in: directory).kind } catch where error == .noEntry {
            return .failure("'\(name)' is not in '\(root)/\(relative)'")
        } catch {
            return .failure("cannot read '\(name)': \(error)")
        }
        switch kind {
        case .file: return .success(())
        case .symlink:
            guard let target = try? FileSystem.linkTarget(name, in: directory),
                  storeRelative(linkTarget: target, from: relative) != nil else {
                return .failure("'\(name)' is a link leading out of the store, which the daemon does not follow")
            }
            return .success(())
        default: return .failure("'\(name)' is not a regular file")
        }
    }
}

extension Store {
    /// False for a side that refers to no medium, which is then not parsed: most sides.
    static func mayReferToMedia(_ text: String, mediaType: String) -> Bool {
        mediaType == "text/markdown" && (text.contains("![") || text.contains("[sound:"))
    }

    /// The bytes of the medium `name` of card `id`'s sides, for `ReadMedium`: only a name one of
    /// its sides lists (so never a path, a side's own file or `tags`), read as a side is (R22).
    /// - Throws: `invalidAsset` when no side lists it; `storeFailure` when it cannot be read or
    ///   holds more than `limit` bytes.
    func mediumBytes(_ id: String, name: String, limit: Int) throws(BoxError) -> (name: String, data: [UInt8]) {
        let card = try card(id, withText: true)
        guard let medium = card.front.medium(named: name) ?? card.back.medium(named: name) else {
            throw .invalidAsset(name: name, reason: "no side of '\(id)' shows a medium of that name")
        }
        // The medium's directory, from the store's root: the card's, its original's or its note's.
        let relative = String(medium.path.dropFirst(root.count + 1).dropLast(name.utf8.count + 1))
        let result: Result<[UInt8], CardDamage>
        do {
            let directory = try FileDescriptor.openDirectory(relative, relativeTo: rootFD)
            defer { directory.close() }
            let kind: EntryKind = (try? FileSystem.status(name, in: directory))?.kind == .symlink ? .symlink : .file
            result = openSide(name, kind: kind, in: directory, cardRelative: relative).flatMap { opened in
                readBounded(opened, limit: limit)
            }
        } catch {
            throw .failing(.read, medium.path, error)
        }
        switch result {
        case .success(let bytes): return (name, bytes)
        case .failure(let damage): throw .storeFailure(path: medium.path, reason: damage.reason)
        }
    }
}

extension Store {
    /// What `doctor` says of a card's media (R31): each reference whose name is not one
    /// file name, and each whose file is not there to be read, once a card. A reverse card's
    /// media are its original's and are reported there.
    func mediaProblems(of id: String, read: SidesRead) -> [StoreProblem] {
        guard read.reverseOf == nil, case .success(let (front, back)) = read.sides else { return [] }
        var problems: [StoreProblem] = []
        var seen = Set<String>()
        for side in [front, back] {
            guard side.mediaType == "text/markdown", let text = side.text else { continue }
            let directory = String(side.path[..<(side.path.lastIndex(of: "/") ?? side.path.endIndex)])
            for piece in SideMedia(parsing: text).pieces {
                switch piece {
                case .refused(let written, let name, _, let reason) where seen.insert(written).inserted:
                    problems.append(StoreProblem(
                        kind: .badMedium, path: side.path,
                        reason: "'\(name)' in \(written) \(reason): shown as text",
                        advice: "put the file in '\(directory)' and write its name alone"))
                case .image(_, let name, _), .sound(let name, _):
                    guard side.medium(named: name) == nil, seen.insert(name).inserted else { continue }
                    problems.append(StoreProblem(
                        kind: .badMedium, path: side.path,
                        reason: "\(piece.written) names no file that can be shown: \(missingReason(name, in: directory)); shown as text",
                        advice: "put '\(name)' in '\(directory)', or remove the reference"))
                default: continue
                }
            }
        }
        return problems
    }

    /// Why the medium `name` of the directory at `path` was not listed.
    private func missingReason(_ name: String, in path: String) -> String {
        let relative = String(path.dropFirst(root.count + 1))
        guard let directory = try? FileDescriptor.openDirectory(relative, relativeTo: rootFD) else {
            return "cannot open '\(path)'"
        }
        defer { directory.close() }
        if case .failure(let damage) = mediumStatus(name, in: directory, relative: relative) { return damage.reason }
        return "it appeared meanwhile"
    }
}

extension Store {
    /// The bytes of each picture and sound already in card `id`'s directory, by name: what
    /// `addMedia` compares a new medium with. A file it cannot read counts as other bytes.
    func mediaBytes(_ id: String, in level: Level) -> [String: [UInt8]] {
        guard let levelDirectory = openFD(level),
              let directory = try? FileDescriptor.openDirectory(id, relativeTo: levelDirectory) else { return [:] }
        defer { directory.close() }
        var names: [(String, EntryKind)] = []
        try? FileSystem.forEachEntry(directory, fresh: true) { name, kind in
            if MediaName.kind(ofMediaType: MediaType.of(fileName: name)) != nil { names.append((name, kind)) }
        }
        var found: [String: [UInt8]] = [:]
        for (name, kind) in names {
            let bytes = try? openSide(name, kind: kind, in: directory, cardRelative: level.name + "/" + id).get()
            found[name] = bytes.flatMap { try? readBounded($0, limit: Int.max - 1).get() } ?? []
        }
        return found
    }
}
