import LeitnerSystem

/// Where this device's review log last put each card, as of a log offset: the file
/// `.leitner/local.DEVICE/logged-levels`, written when the box closes (docs/store-format.md).
/// The next open compares it, with the lines logged since, to the cards it finds, and so tells
/// every card moved, made or removed by hand while no daemon ran (R13, R16) — whether or not the
/// change touches the open test — without reading the whole log: a million lines are a second,
/// the levels of 100,000 cards a few milliseconds, and only the levels whose directory changed
/// are read at all (each level's stamp is kept beside its cards).
///
///     leitner-logged-levels 1
///     log 123456 1a2b3c4d
///     1 1764300000.123456789,1764300000.123456789,4 2 10
///     2 ? 0 0
///     …                                  (a line a level, in `Level.allCases`' order)
///     hola
///     adios
///
/// The `log` line holds the log's size when the file was made and the check of the bytes before
/// it (`PeerReadMarks.check`): a log replaced since by another history does not match, and the
/// file is not used. Each level's line holds its name, its directory's stamp then (`?`: not
/// known), its cards and their bytes; the ids follow, a line each, level by level.
struct LoggedLevels {
    static let fileName = "logged-levels"
    private static let magic = "leitner-logged-levels 1"

    /// The log's size when the file was made, and the check of the bytes before it.
    var logOffset: Int
    var logCheck: UInt32
    /// Each level's directory stamp (`Store.levelStampList`), its cards as the file counts them,
    /// and where its ids lie in `bytes`.
    private var sections: [Level: (stamp: String, count: Int, range: Range<Int>)] = [:]
    private var bytes: [UInt8] = []

    /// The file in `directory`; nil when it is missing, unreadable or not whole (the box then
    /// reads the whole log once instead).
    static func load(in directory: FileDescriptor) -> LoggedLevels? {
        guard let bytes = try? FileSystem.readFile(fileName, in: directory) else { return nil }
        return decoded(bytes)
    }

    /// The file's bytes read; nil when they are not whole.
    static func decoded(_ bytes: [UInt8]) -> LoggedLevels? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2 + Level.allCases.count, omittingEmptySubsequences: false)
        guard lines.count == 3 + Level.allCases.count, String(decoding: lines[0], as: UTF8.self) == magic else { return nil }
        let log = lines[1].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard log.count == 3, log[0] == "log", let offset = Int(log[1]), offset >= 0,
              let check = UInt32(log[2], radix: 16) else { return nil }
        var read = LoggedLevels(logOffset: offset, logCheck: check)
        // The ids, after the header's last newline.
        var at = lines.removeLast().startIndex
        for (number, level) in Level.allCases.enumerated() {
            let fields = lines[2 + number].split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            // Each id is at least a byte and its newline: a count the section cannot hold is a
            // damaged file, and it sizes an index before any id is read (review F3 of session 12).
            guard fields.count == 4, fields[0] == level.name, let count = Int(fields[2]),
                  let length = Int(fields[3]), length >= 0, length <= bytes.count - at,
                  count <= length / 2 else { return nil }
            read.sections[level] = (fields[1], max(0, count), at..<at + length)
            at += length
        }
        guard at == bytes.count else { return nil }
        read.bytes = bytes
        return read
    }

    private init(logOffset: Int, logCheck: UInt32) {
        self.logOffset = logOffset
        self.logCheck = logCheck
    }

    /// The directory stamp of `level` when the file was made; nil when it was not known.
    func stamp(of level: Level) -> String? {
        sections[level].flatMap { $0.stamp == "?" ? nil : $0.stamp }
    }

    /// Adds the cards the file has in `levels` to `index`, at their level.
    func add(_ levels: Set<Level>, to index: inout CardIndex) {
        forEachCard(in: levels) { level, id in index.updateValue(level, forBytes: id) }
    }

    /// Calls `body` with the level and the id's bytes (valid during the call only) of each card
    /// the file has in `levels`, level by level in `Level.allCases`' order, each level's in the
    /// file's order.
    func forEachCard(in levels: Set<Level> = Set(Level.allCases), _ body: (Level, UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            for level in Level.allCases where levels.contains(level) {
                guard let range = sections[level]?.range else { continue }
                var start = range.lowerBound
                for end in range where all[end] == UInt8(ascii: "\n") {
                    if end > start { body(level, UnsafeBufferPointer(rebasing: all[start..<end])) }
                    start = end + 1
                }
            }
        }
    }

    /// The cards the file says it holds, every level's: room to make for them.
    var cardCount: Int { sections.values.reduce(0) { $0 + $1.count } }

    /// The file's bytes for `index`'s cards, each at its level, with `also` (cards the log puts in
    /// a level while the index has them nowhere: in transit), as of log offset `offset` with check
    /// `check`; each level's stamp from `stamps` (nil: not known).
    static func encode(_ index: CardIndex, also: [String: Level], logOffset: Int, logCheck: UInt32, stamps: [String]?) -> [UInt8] {
        var ids = [[UInt8]](repeating: [], count: Level.allCases.count)
        var counts = [Int](repeating: 0, count: Level.allCases.count)
        index.forEachEntryWithBytes { _, level, bytes in
            ids[level.rawValue - 1].append(contentsOf: bytes)
            ids[level.rawValue - 1].append(UInt8(ascii: "\n"))
            counts[level.rawValue - 1] += 1
        }
        for (id, level) in also where index[id] == nil {
            ids[level.rawValue - 1].append(contentsOf: Array(id.utf8) + [UInt8(ascii: "\n")])
            counts[level.rawValue - 1] += 1
        }
        var header = "\(magic)\nlog \(logOffset) \(String(logCheck, radix: 16))\n"
        for level in Level.allCases {
            let number = level.rawValue - 1
            header += "\(level.name) \(stamps?[number] ?? "?") \(counts[number]) \(ids[number].count)\n"
        }
        return Array(header.utf8) + ids.joined()
    }
}
