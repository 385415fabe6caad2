import Glibc

/// Reading cards: a card's sides are looked at when it is shown, never at open (R21: a damaged
/// card is reported, kept out of tests and counts, and never touched).
extension Store {
    /// The most text a `Side` carries.
    static let maxInlineText = 64 * 1024

    /// The card `id` as it is on disk, its text sides filled when `withText`.
    /// - Throws: `noSuchCard`; `storeFailure` naming the card directory when it is damaged
    ///   (it is then recorded in `damaged`).
    func card(_ id: String, withText: Bool) throws(BoxError) -> Card {
        guard let level = levelOf[id] else { throw .noSuchCard(id: id) }
        let cardPath = path(of: id, in: level)
        switch readSides(id, in: level, withText: withText) {
        case .success(let (front, back)):
            damaged[id] = nil
            return Card(id: id, level: level, front: front, back: back)
        case .failure(let damage):
            let reason = damage.reason
            damaged[id] = reason
            throw .storeFailure(path: cardPath, reason: "damaged card: \(reason) (R21)")
        }
    }

    /// `card` as it is after its directory moved to `level`.
    func relocated(_ card: Card, to level: Level) -> Card {
        var moved = card
        let directory = path(of: card.id, in: level) + "/"
        moved.level = level
        moved.front.path = directory + String(card.front.path.split(separator: "/").last ?? "")
        moved.back.path = directory + String(card.back.path.split(separator: "/").last ?? "")
        return moved
    }

    /// Checks a card's directory; returns the reason it is damaged, nil when it is sound.
    func damage(of id: String) -> String? {
        guard let level = levelOf[id] else { return nil }
        if case .failure(let damage) = readSides(id, in: level, withText: false) {
            damaged[id] = damage.reason
            return damage.reason
        }
        damaged[id] = nil
        return nil
    }

    /// The file name of one side (`front.png`), for `ReadAsset`.
    func assetBytes(_ id: String, side: SideName) throws(BoxError) -> (name: String, data: [UInt8]) {
        let card = try card(id, withText: false)
        let path = side == .front ? card.front.path : card.back.path
        let name = String(path.split(separator: "/").last ?? "")
        do {
            return (name, try FileSystem.readFile(atPath: path, limit: 256 << 20))
        } catch {
            throw .storeFailure(path: path, reason: "cannot read: \(error)")
        }
    }

    private func readSides(_ id: String, in level: Level, withText: Bool) -> Result<(Side, Side), CardDamage> {
        let cardDirectory: FileDescriptor
        do {
            cardDirectory = try FileDescriptor.openDirectory(id, relativeTo: fd(level))
        } catch {
            return .failure("cannot open the card directory: \(error)")
        }
        defer { cardDirectory.close() }
        var found: [SideName: [DirectoryEntry]] = [:]
        do {
            for entry in try FileSystem.list(cardDirectory) {
                for side in SideName.allCases where entry.name.hasPrefix(side.rawValue + ".") {
                    found[side, default: []].append(entry)
                }
            }
        } catch {
            return .failure("cannot read the card directory: \(error)")
        }
        var sides: [Side] = []
        for side in SideName.allCases {
            let entries = found[side] ?? []
            guard entries.count == 1, let entry = entries.first else {
                let names = entries.map { "'\($0.name)'" }.sorted().joined(separator: ", ")
                return .failure(entries.isEmpty ? "no \(side.rawValue) file" : "\(entries.count) \(side.rawValue) files: \(names)")
            }
            switch readSide(entry, in: cardDirectory, cardPath: path(of: id, in: level), withText: withText) {
            case .success(let value): sides.append(value)
            case .failure(let damage): return .failure(damage)
            }
        }
        return .success((sides[0], sides[1]))
    }

    private func readSide(_ entry: DirectoryEntry, in directory: FileDescriptor, cardPath: String,
                          withText: Bool) -> Result<Side, CardDamage> {
        let filePath = cardPath + "/" + entry.name
        var openPath = entry.name
        var relativeTo: FileDescriptor? = directory
        if entry.kind == .symlink {
            // R22: a link is followed only when it stays inside the store.
            guard let target = try? FileSystem.realPath(filePath), target.hasPrefix(root + "/") else {
                return .failure("'\(entry.name)' is a link leading out of the store (R22)")
            }
            openPath = target
            relativeTo = nil
        }
        let mediaType = MediaType.of(fileName: entry.name)
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(openPath, relativeTo: relativeTo, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            return .failure("cannot read '\(entry.name)': \(error)")
        }
        defer { file.close() }
        var st = stat()
        guard fstat(file.rawValue, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            return .failure("'\(entry.name)' is not a regular file")
        }
        var text: String?
        if withText, MediaType.isText(mediaType) {
            do {
                var bytes = try file.read(upTo: Store.maxInlineText)
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
        return .success(Side(path: cardPath + "/" + entry.name, mediaType: mediaType, text: text))
    }
}

/// Why a card directory is damaged (R21).
struct CardDamage: Error, ExpressibleByStringInterpolation {
    var reason: String

    init(stringLiteral value: String) { reason = value }
    init(stringInterpolation: DefaultStringInterpolation) { reason = String(stringInterpolation: stringInterpolation) }
}
