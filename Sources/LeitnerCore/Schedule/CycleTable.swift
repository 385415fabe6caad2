/// The cycle table `T` (R2, R3): entry `k` is the set of levels reviewed in the k-th test.
public struct CycleTable: Sendable, Equatable {
    /// The entries, entry 0 first; each lists its levels in the table's order.
    public let entries: [[Level]]

    /// The number of entries, `L`.
    public var count: Int { entries.count }

    /// The levels reviewed by the test at cycle position `position` (R2): `T[p mod L]`.
    public func levels(at position: Int) -> [Level] {
        entries[((position % count) + count) % count]
    }

    /// The default 64-entry table (R3).
    public static let standard = try! CycleTable(parsing: """
        2,1 3,1 2,1 4,1 2,1 3,1 2,1 1 2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1 2,1 3,1 2,1 4,1 2,1 3,1 2,1 6,1 \
        2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1 2,1 3,1 2,1 4,1 2,1 3,1 2,1 1 2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1 \
        2,1 3,1 2,1 4,1 2,1 3,1 2,1 7,1 2,1 3,1 6,2,1 5,1 4,2,1 3,1 2,1 1
        """)

    /// Builds a table from its entries.
    /// - Throws: `CycleTableError` when there is no entry or an entry is empty.
    public init(entries: [[Level]]) throws(CycleTableError) {
        if entries.isEmpty { throw .empty }
        if let index = entries.firstIndex(where: \.isEmpty) { throw .emptyEntry(index: index) }
        self.entries = entries
    }

    /// Parses the inline form of R3 and `[Schedule] Cycle=`: entries separated by white space,
    /// levels within an entry separated by commas (`2,1 3,1 …`).
    /// - Throws: `CycleTableError` naming the entry and the reason (R3): an empty entry, a level
    ///   outside `1`–`7`, a level named twice in one entry, or no entry at all.
    ///
    /// Read as bytes, not characters: every separator and level name is ASCII, and the standard
    /// table is parsed by every process that reads a configuration (leitnerctl's too), where
    /// splitting 64 entries into grapheme clusters was 2.5 % of `leitnerctl status` (perf).
    public init(parsing text: String) throws(CycleTableError) {
        var entries: [[Level]] = []
        let words = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") })
        for (index, word) in words.enumerated() {
            var levels: [Level] = []
            for part in word.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard !part.isEmpty else { throw .emptyEntry(index: index) }
                // `1` … `7`: one digit; anything else is named in the error as written.
                guard part.count == 1, let digit = part.first, (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(digit),
                      let level = Level(rawValue: Int(digit - UInt8(ascii: "0"))), level.inRotation else {
                    throw .invalidLevel(index: index, level: String(decoding: part, as: UTF8.self))
                }
                if levels.contains(level) { throw .repeatedLevel(index: index, level: level) }
                levels.append(level)
            }
            entries.append(levels)
        }
        try self.init(entries: entries)
    }

    /// The inline form, as `Cycle=` takes it.
    public var inlineForm: String {
        entries.map { $0.map(\.name).joined(separator: ",") }.joined(separator: " ")
    }
}
