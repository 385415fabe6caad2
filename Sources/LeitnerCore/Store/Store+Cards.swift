import LeitnerSystem

/// Reading cards: a card's sides are looked at when it is shown, never at open (R21: a damaged
/// card is reported, kept out of tests and counts, and never touched).
extension Store {
    /// The most text a `Side` carries.
    static let maxInlineText = 64 * 1024

    /// The card `id` as it is on disk, its text sides filled when `withText`.
    /// - Throws: `noSuchCard`; `storeFailure` naming the card directory when it is damaged
    ///   (it is then recorded in `damaged`).
    func card(_ id: String, withText: Bool) throws(BoxError) -> Card {
        guard let level = level(of: id) else { throw .noSuchCard(id: id) }
        return try cardRead(id, in: level, withText: withText).card.get()
    }

    /// `card(_:withText:)` of a card in `level`, with the read it was made from: the outline
    /// table (`OutlineTable`) keeps what it named (`reverseOf`) and whether it followed a link,
    /// damaged or not.
    /// - Parameter stamping: the read takes the card's `CardStamp` too (`SidesRead.stamp`).
    func cardRead(_ id: String, in level: Level, withText: Bool, stamping: Bool = false) -> (card: Result<Card, BoxError>, read: SidesRead) {
        let read = readSides(id, in: level, withText: withText, stamping: stamping)
        noteConflicts(read, of: id)
        switch read.sides {
        case .success(let (front, back)):
            noteDamage(of: id, nil)
            return (.success(Card(id: id, level: level, front: front, back: back, tags: read.tags.tags,
                                  reverseOf: read.reverseOf, clozeOf: read.clozeOf)), read)
        case .failure(let damage):
            noteDamage(of: id, damage.reason)
            return (.failure(.storeFailure(path: path(of: id, in: level), reason: "damaged card: \(damage.reason)")), read)
        }
    }

    /// `card` as it is after its directory moved to `level`. A reverse card's sides are the
    /// files of the card it reverses (R28), in that card's directory where it is now: a request
    /// that moves both gives the paths that exist when it answers (R17).
    func relocated(_ card: Card, to level: Level) -> Card {
        var moved = card
        moved.level = level
        var directory = path(of: card.id, in: level) + "/"
        if let original = card.reverseOf {
            guard let at = self.level(of: original) else { return moved }
            directory = path(of: original, in: at) + "/"
        }
        moved.front.path = directory + Store.fileName(of: card.front.path)
        moved.back.path = directory + Store.fileName(of: card.back.path)
        return moved
    }

    /// The last component of a side's path, its bytes after the last `/`: every grade's reply
    /// is made with it, and splitting the whole path into its components (an array of them)
    /// showed in the grade's profile.
    private static func fileName(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: path.utf8[path.utf8.index(after: slash)...], as: UTF8.self)
    }

    /// Checks a card's directory; returns the reason it is damaged, nil when it is sound.
    /// - Parameter readingText: read the text sides too, to find git's conflict markers (`doctor`).
    func damage(of id: String, readingText: Bool = false) -> String? {
        examine(id, readingText: readingText)?.damage
    }

    /// `damage(of:readingText:)` with the read it made, so that `doctor` also judges the card's
    /// `tags` from it rather than listing the card's directory a second time, and says what to do
    /// about a damaged reverse card (R28: the read's `CardDamage.advice`); nil for no such card.
    func examine(_ id: String, readingText: Bool) -> (damage: String?, read: SidesRead)? {
        guard let level = level(of: id) else { return nil }
        let read = readSides(id, in: level, withText: readingText)
        noteConflicts(read, of: id)
        if case .failure(let damage) = read.sides {
            noteDamage(of: id, damage.reason)
            return (damage.reason, read)
        }
        noteDamage(of: id, nil)
        return (nil, read)
    }

    /// The file name and bytes of one side (`front.png`), for `ReadAsset`. The side is opened
    /// once, through the card directory, following no link out of the store, and read from that
    /// same descriptor: a link or a FIFO swapped in meanwhile is refused, never read (R22).
    /// - Throws: `storeFailure` naming the file when it cannot be read or holds more than `limit`
    ///   bytes (checked before reading).
    func assetBytes(_ id: String, side: SideName, limit: Int) throws(BoxError) -> (name: String, data: [UInt8]) {
        let card = try card(id, withText: false)
        // A cloze card's sides are its note's text (R30): what an editor opens is the note.
        if let link = card.clozeOf { return try noteAsset(link, side: side, limit: limit) }
        let path = side == .front ? card.front.path : card.back.path
        let name = String(path.split(separator: "/").last ?? "")
        // A reverse card's sides are files of the card it reverses (R28): read them there.
        let owner = card.reverseOf ?? id
        guard let level = level(of: owner), let levelDirectory = openFD(level) else { throw .noSuchCard(id: id) }
        let result: Result<[UInt8], CardDamage>
        do {
            let cardDirectory = try FileDescriptor.openDirectory(owner, relativeTo: levelDirectory)
            defer { cardDirectory.close() }
            let kind: EntryKind = (try? FileSystem.status(name, in: cardDirectory)).map {
                $0.kind == .symlink ? .symlink : .file
            } ?? .file
            result = openSide(name, kind: kind, in: cardDirectory, cardRelative: level.name + "/" + owner).flatMap { opened in
                readBounded(opened, limit: limit)
            }
        } catch {
            throw .failing(.read, path, error)
        }
        switch result {
        case .success(let bytes): return (name, bytes)
        case .failure(let damage): throw .storeFailure(path: path, reason: damage.reason)
        }
    }

    /// The bytes of a file `openSide` opened, which it closes: refused when it holds more than
    /// `limit` bytes, checked before reading and again after (it may grow meanwhile).
    func readBounded(_ opened: (file: FileDescriptor, status: FileStatus), limit: Int) -> Result<[UInt8], CardDamage> {
        defer { opened.file.close() }
        let size = Int(opened.status.st_size)
        guard size <= limit else {
            return .failure("too large: \(size) bytes, the most a reply carries is \(limit)")
        }
        let bytes: [UInt8]
        do { bytes = try opened.file.readAll(limit: limit + 1) } catch {
            return .failure("cannot read: \(error)")
        }
        return bytes.count <= limit ? .success(bytes) : .failure("grew past \(limit) bytes while being read")
    }
}

/// The reading itself, the same through the store's descriptors and through a `CardReader`'s
/// (an index built outside the box's turn): whatever reads a card reads it by these rules (R22).
extension CardSource {
    /// Opens one side of a card for reading, race-free (R22): the entry itself with `O_NOFOLLOW`;
    /// a link is followed only when its target stays inside the store, and then component by
    /// component from the store's root, each with `O_NOFOLLOW`, so that no link swapped in on
    /// the way can lead out. `O_NONBLOCK` keeps a FIFO from blocking the open; only a regular
    /// file is accepted, by `fstat` of the descriptor that is then read.
    func openSide(_ name: String, kind: EntryKind, in cardDirectory: FileDescriptor,
                  cardRelative: String) -> Result<(file: FileDescriptor, status: FileStatus), CardDamage> {
        let options: FileDescriptor.OpenOptions = [.noFollow, .nonBlocking]
        var file: FileDescriptor?
        if kind != .symlink {
            do { file = try FileDescriptor.open(name, relativeTo: cardDirectory, .readOnly, options: options) } catch where error == .tooManyLinks {
                // A link put there since the directory was listed: followed under the same rule.
            } catch {
                return .failure("cannot read '\(name)': \(error)")
            }
        }
        if file == nil {
            guard let target = try? FileSystem.linkTarget(name, in: cardDirectory),
                  let inside = storeRelative(linkTarget: target, from: cardRelative) else {
                return .failure("'\(name)' is a link leading out of the store, which the daemon does not follow")
            }
            do { file = try openBeneathRoot(inside, options: options) } catch {
                return .failure("'\(name)' is a link to '\(target)', which cannot be read inside the store: \(error)")
            }
        }
        guard let opened = file else { return .failure("cannot read '\(name)'") }
        let st: FileStatus
        do { st = try opened.status() } catch {
            opened.close()
            return .failure("cannot read '\(name)': \(error)")
        }
        guard st.isRegularFile else {
            opened.close()
            return .failure("'\(name)' is not a regular file")
        }
        return .success((opened, st))
    }

    /// A link's target as a path below the store's root, its `.` and `..` resolved by name; nil
    /// when it leads out of the store.
    func storeRelative(linkTarget target: String, from cardRelative: String) -> String? {
        var components: [Substring]
        if target.hasPrefix("/") {
            guard target.hasPrefix(root + "/") else { return nil }
            components = []
        } else {
            components = cardRelative.split(separator: "/")
        }
        let rest = target.hasPrefix("/") ? String(target.dropFirst(root.count + 1)) : target
        for component in rest.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                guard !components.isEmpty else { return nil }
                components.removeLast()
            default: components.append(component)
            }
        }
        return components.isEmpty ? nil : components.joined(separator: "/")
    }

    /// Opens `relative` below the store's root one component at a time, following no link.
    private func openBeneathRoot(_ relative: String, options: FileDescriptor.OpenOptions) throws(Errno) -> FileDescriptor {
        let components = relative.split(separator: "/").map(String.init)
        var directory = try FileDescriptor.openDirectory(".", relativeTo: rootFD)
        defer { directory.close() }
        for component in components.dropLast() {
            let next = try FileDescriptor.openDirectory(component, relativeTo: directory)
            directory.close()
            directory = next
        }
        return try FileDescriptor.open(components.last ?? ".", relativeTo: directory, .readOnly, options: options)
    }
}

extension Store {
    /// What reading a card's directory found: its sides or why it is damaged, and what a sync
    /// tool left in it (docs/sync.md).
    struct SidesRead {
        var sides: Result<(Side, Side), CardDamage>
        /// Conflict copies of a side (`back.sync-conflict-….txt`), by name.
        var conflictCopies: [String] = []
        /// Text sides holding git's conflict markers, by name; nil when the text was not read.
        var markedSides: [String]?
        /// The id a `reverse-of` file names (R28), valid or not as a card; nil when there is none.
        var reverseOf: String?
        /// The note and number a `cloze-of` file names (R30); nil when there is none or it names none.
        var clozeOf: ClozeOf?
        /// The card's `tags` file read (R25): no tags when it has none. Its bad lines never
        /// damage the card; `doctor` reports them.
        var tags = CardTag.Parsed()
        /// Why the `tags` file could not be read at all, if so (a directory, a link out).
        var tagsProblem: String?
        /// A side may have been read through a symbolic link (R22: one inside the store): a
        /// change of its target is no event of the card directory's watch.
        var followsLink = false
        /// The card directory's stamp, taken by the read itself when asked (`stamping`); nil when
        /// not asked or its directory could not be opened or listed.
        var stamp: CardStamp?
    }

    /// Takes in what a search index build's reads found (`SearchIndex.Note`), and forgets what
    /// older reads left of the cards it read and found clean (`unread`: those it could not read).
    func takeNotes(_ notes: [String: SearchIndex.Note], of cards: CardIndex, unread: Set<String>) {
        for (id, note) in notes { noteConflicts(copies: note.conflictCopies, marked: note.markedSides, of: id) }
        for id in cardsWithConflicts where notes[id] == nil && cards[id] != nil && !unread.contains(id) {
            noteConflicts(copies: [], marked: [], of: id)
        }
    }

    /// Reads again the cards a sync tool left conflict copies or markers in, but for the damaged
    /// ones: they may have been resolved by hand since (`Status`).
    func lookAgainAtConflictedCards() {
        for id in cardsWithConflicts where !isDamaged(id) {
            _ = damage(of: id, readingText: conflictMarkers(of: id) != nil)
        }
    }

    /// Records what a read of a card found a sync tool left, for `status` and `doctor`.
    func noteConflicts(_ read: SidesRead, of id: String) {
        noteConflicts(copies: read.conflictCopies, marked: read.markedSides, of: id)
    }

    /// The side a file of a card's directory is (`back.txt`), nil for any other file. A sync
    /// tool's file (`back.sync-conflict-….txt`, `.syncthing.back.txt.tmp`) is never a side.
    static func side(ofFile name: String) -> SideName? {
        guard let side = SideName.allCases.first(where: { isSideFile(name, of: $0) }),
              SyncArtifact(fileName: name) == nil else { return nil }
        return side
    }
}

extension CardSource {
    /// - Parameters:
    ///   - asOriginal: the card is read for a reverse card's sides (R28): a reverse card found
    ///     there is refused, since a reverse of a reverse has no sides of its own to show.
    ///   - stamping: take the card directory's `CardStamp` with the read (`SidesRead.stamp`),
    ///     from the read's own descriptors where it has them (`CardStamp.Taking`): the search
    ///     index's reads, which took it apart before, opening and listing each card twice.
    func readSides(_ id: String, in level: Level, withText: Bool, asOriginal: Bool = false,
                   stamping: Bool = false) -> Store.SidesRead {
        let cardDirectory: FileDescriptor
        do {
            cardDirectory = try FileDescriptor.openDirectory(id, relativeTo: try fd(level))
        } catch {
            return Store.SidesRead(sides: .failure("cannot open the card directory: \(error)"))
        }
        defer { cardDirectory.close() }
        var taking = stamping ? CardStamp.Taking(cardDirectory) : nil
        func finished(_ read: Store.SidesRead) -> Store.SidesRead {
            var read = read
            read.stamp = taking?.stamp
            return read
        }
        // The sides' entries, by `SideName` order; more than one of a side is damage (R21).
        var found: ([DirectoryEntry], [DirectoryEntry]) = ([], [])
        var read = Store.SidesRead(sides: .failure("not read"), markedSides: withText ? [] : nil)
        var reverseEntry: EntryKind?
        var clozeEntry: EntryKind?
        var tagsEntry: DirectoryEntry?
        do {
            try FileSystem.forEachEntry(cardDirectory, fresh: true) { name, kind in
                taking?.listed(name)
                if name == Store.reverseFileName {
                    reverseEntry = kind
                } else if name == Store.clozeFileName {
                    clozeEntry = kind
                } else if name == CardTag.fileName {
                    tagsEntry = DirectoryEntry(name: name, kind: kind)
                } else if let side = Store.side(ofFile: name) {
                    if side == .front {
                        found.0.append(DirectoryEntry(name: name, kind: kind))
                    } else {
                        found.1.append(DirectoryEntry(name: name, kind: kind))
                    }
                } else if let original = SyncArtifact(fileName: name)?.original, Store.side(ofFile: original) != nil {
                    read.conflictCopies.append(name)
                }
            }
        } catch {
            read.sides = .failure("cannot read the card directory: \(error)")
            return read
        }
        read.conflictCopies.sort()
        if taking != nil {
            // What is read below by its own descriptor gives its status then (`seen`): a plain
            // file (a link's `fstat` would be its target's) of the tags or of a card's own sides.
            var opened = asOriginal ? [] : [tagsEntry].compactMap { $0 }
            if clozeEntry == nil && reverseEntry == nil { opened += [found.0, found.1].filter { $0.count == 1 }.joined() }
            taking?.askUnseen(in: cardDirectory) { name in opened.contains { $0.name == name && $0.kind == .file } }
        }
        // A reverse card's tags are its own (R28): read from its own directory, as any card's.
        if let tagsEntry, !asOriginal {
            switch readTags(tagsEntry, in: cardDirectory, cardRelative: level.name + "/" + id, seen: { taking?.seen($0, of: tagsEntry.name) }) {
            case .success(let parsed): read.tags = parsed
            case .failure(let problem): read.tagsProblem = problem.reason
            }
        }
        if let clozeEntry, reverseEntry == nil {
            return finished(readCloze(id, in: level, directory: cardDirectory, entry: clozeEntry, withText: withText,
                                      hasSides: !found.0.isEmpty || !found.1.isEmpty, asOriginal: asOriginal, read: read))
        }
        if let reverseEntry {
            return finished(readReverse(id, in: level, directory: cardDirectory, entry: reverseEntry, withText: withText,
                                        hasSides: !found.0.isEmpty || !found.1.isEmpty, asOriginal: asOriginal, read: read))
        }
        var sides: [Side] = []
        for (side, entries) in [(SideName.front, found.0), (SideName.back, found.1)] {
            guard entries.count == 1, let entry = entries.first else {
                let names = entries.map { "'\($0.name)'" }.sorted().joined(separator: ", ")
                read.sides = .failure(entries.isEmpty ? "no \(side.rawValue) file" : "\(entries.count) \(side.rawValue) files: \(names)")
                return read
            }
            // A kind the directory did not tell (`unknown`) may be a link too.
            if entry.kind != .file { read.followsLink = true }
            switch readSide(entry, in: cardDirectory, level: level, id: id, withText: withText,
                            seen: { taking?.seen($0, of: entry.name) }) {
            case .success(let value):
                sides.append(value)
                if let text = value.text, SyncArtifact.hasConflictMarkers(text) { read.markedSides?.append(entry.name) }
            case .failure(let damage):
                read.sides = .failure(damage)
                return finished(read)
            }
        }
        read.sides = .success((sides[0], sides[1]))
        return finished(read)
    }

    /// - Parameter seen: given the opened file's status, before it is read.
    private func readSide(_ entry: DirectoryEntry, in directory: FileDescriptor, level: Level, id: String,
                          withText: Bool, seen: (FileStatus) -> Void) -> Result<Side, CardDamage> {
        let cardPath = path(of: id, in: level)
        let mediaType = MediaType.of(fileName: entry.name)
        let file: FileDescriptor
        let size: Int
        switch openSide(entry.name, kind: entry.kind, in: directory, cardRelative: level.name + "/" + id) {
        case .success(let opened):
            file = opened.file
            size = Int(opened.status.st_size)
            seen(opened.status)
        case .failure(let damage): return .failure(damage)
        }
        defer { file.close() }
        var text: String?
        if withText, MediaType.isText(mediaType) {
            do {
                // As much as the file holds (its size when it was opened), not a 64 KiB buffer
                // for every side of every card listed.
                var bytes = try file.read(upTo: min(Store.maxInlineText, max(0, size)))
                // Cut at a character boundary: drop a UTF-8 sequence the limit split.
                if bytes.count == Store.maxInlineText {
                    while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
                    if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
                }
                text = String(decoding: bytes, as: UTF8.self)
            } catch {
                return .failure("cannot read '\(entry.name)': \(error)")
            }
        }
        let found = text.map { self.media(of: $0, mediaType: mediaType, in: directory, path: cardPath, relative: level.name + "/" + id) }
        return .success(Side(path: cardPath + "/" + entry.name, mediaType: mediaType, text: text, media: found ?? []))
    }
}

/// Why a card directory is damaged (R21).
struct CardDamage: Error, ExpressibleByStringInterpolation {
    var reason: String
    /// What the person can do about it, when it is not the usual (one front, one back).
    var advice: String?

    init(stringLiteral value: String) { reason = value }
    init(stringInterpolation: DefaultStringInterpolation) { reason = String(stringInterpolation: stringInterpolation) }
    init(_ reason: String, advice: String) {
        self.reason = reason
        self.advice = advice
    }
}
