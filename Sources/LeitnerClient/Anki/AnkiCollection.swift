import LeitnerVarlink

/// The notes, cards, note types and decks of an Anki collection, read through `sqlite3 -json`
/// (docs/anki-import.md). Both schemas Anki writes are read: 11, whose note types and decks are
/// JSON in the `col` row, and 18, whose `notetypes`, `fields`, `templates` and `decks` tables
/// hold protobuf `config` columns (fields from Anki's `notetypes.proto`). No statement sorts or
/// compares a column declared `COLLATE unicase`, which Debian's `sqlite3` does not have; each
/// note's own `tags` column is read, not the `tags` table.
public struct AnkiCollection: Sendable {
    public struct Template: Sendable, Equatable {
        public var name: String
        public var question: String
        public var answer: String
    }

    public struct Notetype: Sendable {
        public var id: Int64
        public var name: String
        public var isCloze: Bool
        public var fields: [String]
        public var templates: [Template]
        /// Anki's `OriginalStockKind`: 6 is image occlusion.
        public var stockKind: Int
        public var isImageOcclusion: Bool {
            stockKind == 6 || templates.contains { $0.question.contains("image-occlusion") }
        }
    }

    public struct Note: Sendable {
        public var id: Int64
        public var guid: String
        public var notetype: Int64
        public var tags: [String]
        public var fields: [String]
    }

    public struct Card: Sendable {
        public var id: Int64
        public var note: Int64
        public var deck: Int64
        /// The template's index, or for a cloze note the deletion number less one.
        public var ord: Int
        /// 0 new, 1 learning, 2 review, 3 relearning.
        public var type: Int
        /// -1 suspended, -2 and -3 buried, 0 new, 1 and 4 learning, 2 review, 3 day-learning.
        public var queue: Int
        /// A new card's position in the new queue; a review card's day.
        public var due: Int64
        /// The interval in days of a review card.
        public var interval: Int
    }

    public var notetypes: [Int64: Notetype] = [:]
    public var decks: [Int64: String] = [:]
    public var notes: [Int64: Note] = [:]
    public var cards: [Card] = []

    /// Reads the collection at `path`.
    /// - Throws: `AnkiPackageError`.
    public init(path: String) throws(AnkiPackageError) {
        let query = { (sql: String) throws(AnkiPackageError) -> [[String: JSONValue]] in try AnkiCollection.rows(path, sql) }
        guard let version = try query("SELECT ver FROM col").first?["ver"]?.intValue else {
            throw .damaged("its collection has no 'col' row")
        }
        if version >= 15 {
            try readSchema18(query)
        } else {
            try readSchema11(query)
        }
        for row in try query("SELECT id, guid, mid, tags, flds FROM notes") {
            guard let id = row["id"]?.intValue, let notetype = row["mid"]?.intValue else { continue }
            notes[Int64(id)] = Note(id: Int64(id), guid: row["guid"]?.stringValue ?? String(id), notetype: Int64(notetype),
                                    tags: (row["tags"]?.stringValue ?? "").split(separator: " ").map(String.init),
                                    fields: (row["flds"]?.stringValue ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false)
                                        .map(String.init))
        }
        for row in try query("SELECT id, nid, did, ord, type, queue, due, ivl FROM cards") {
            func int(_ name: String) -> Int { row[name]?.intValue ?? 0 }
            cards.append(Card(id: Int64(int("id")), note: Int64(int("nid")), deck: Int64(int("did")), ord: int("ord"),
                              type: int("type"), queue: int("queue"), due: Int64(int("due")), interval: int("ivl")))
        }
    }

    private mutating func readSchema11(_ query: (String) throws(AnkiPackageError) -> [[String: JSONValue]]) throws(AnkiPackageError) {
        guard let row = try query("SELECT models, decks FROM col").first,
              let models = (row["models"]?.stringValue).flatMap({ try? JSONValue(parsing: $0) })?.objectValue,
              let decks = (row["decks"]?.stringValue).flatMap({ try? JSONValue(parsing: $0) })?.objectValue else {
            throw .damaged("its note types or decks are not JSON")
        }
        for (_, model) in models {
            guard let model = model.objectValue, let id = model["id"]?.intValue else { continue }
            let fields = (model["flds"]?.arrayValue ?? []).compactMap { $0.objectValue }
                .sorted { ($0["ord"]?.intValue ?? 0) < ($1["ord"]?.intValue ?? 0) }.map { $0["name"]?.stringValue ?? "" }
            let templates = (model["tmpls"]?.arrayValue ?? []).compactMap { $0.objectValue }
                .sorted { ($0["ord"]?.intValue ?? 0) < ($1["ord"]?.intValue ?? 0) }
                .map { Template(name: $0["name"]?.stringValue ?? "", question: $0["qfmt"]?.stringValue ?? "",
                                answer: $0["afmt"]?.stringValue ?? "") }
            notetypes[Int64(id)] = Notetype(id: Int64(id), name: model["name"]?.stringValue ?? "", isCloze: model["type"]?.intValue == 1,
                                            fields: fields, templates: templates,
                                            stockKind: model["originalStockKind"]?.intValue ?? 0)
        }
        for (key, deck) in decks {
            if let id = Int64(key), let name = deck.objectValue?["name"]?.stringValue { self.decks[id] = name }
        }
    }

    private mutating func readSchema18(_ query: (String) throws(AnkiPackageError) -> [[String: JSONValue]]) throws(AnkiPackageError) {
        func config(_ row: [String: JSONValue]) throws(AnkiPackageError) -> ProtobufMessage {
            do { return try ProtobufMessage(AnkiCollection.bytes(hex: row["config"]?.stringValue ?? "")) } catch {
                throw .damaged("a note type's configuration: \(error)")
            }
        }
        var fields: [Int64: [(Int, String)]] = [:]
        for row in try query("SELECT ntid, ord, name FROM fields") {
            guard let id = row["ntid"]?.intValue else { continue }
            fields[Int64(id), default: []].append((row["ord"]?.intValue ?? 0, row["name"]?.stringValue ?? ""))
        }
        var templates: [Int64: [(Int, Template)]] = [:]
        for row in try query("SELECT ntid, ord, name, hex(config) AS config FROM templates") {
            guard let id = row["ntid"]?.intValue else { continue }
            // Template.Config: 1 q_format, 2 a_format.
            let message = try config(row)
            templates[Int64(id), default: []].append((row["ord"]?.intValue ?? 0, Template(
                name: row["name"]?.stringValue ?? "", question: message.string(1) ?? "", answer: message.string(2) ?? "")))
        }
        for row in try query("SELECT id, name, hex(config) AS config FROM notetypes") {
            guard let id = row["id"]?.intValue.map(Int64.init) else { continue }
            // Notetype.Config: 1 kind (1 cloze), 9 original_stock_kind.
            let message = try config(row)
            notetypes[id] = Notetype(id: id, name: row["name"]?.stringValue ?? "", isCloze: message.integer(1) == 1,
                                     fields: (fields[id] ?? []).sorted { $0.0 < $1.0 }.map(\.1),
                                     templates: (templates[id] ?? []).sorted { $0.0 < $1.0 }.map(\.1),
                                     stockKind: Int(message.integer(9) ?? 0))
        }
        for row in try query("SELECT id, name FROM decks") {
            // Schema 18 separates a deck's parts with U+001F where schema 11 wrote `::`.
            if let id = row["id"]?.intValue, let name = row["name"]?.stringValue {
                decks[Int64(id)] = name.split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: "::")
            }
        }
    }

    /// The rows of one statement, each a JSON object of its columns (`sqlite3 -json`), read only.
    static func rows(_ path: String, _ sql: String) throws(AnkiPackageError) -> [[String: JSONValue]] {
        let output = try AnkiPrograms.run(AnkiPrograms.sqlite3, ["-readonly", "-json", path, sql], doing: "read the collection")
        // No row prints nothing at all, not `[]`.
        guard output.contains(where: { $0 != 0x20 && $0 != 0x0A }) else { return [] }
        guard let rows = (try? JSONValue(parsing: output, maxDepth: 8))?.arrayValue else {
            throw .damaged("sqlite3 printed no JSON for '\(sql)'")
        }
        return rows.compactMap(\.objectValue)
    }

    /// The bytes of a hexadecimal string (SQLite's `hex()` of a blob).
    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            let digit: UInt8 = c >= 0x61 ? c - 0x61 + 10 : c >= 0x41 ? c - 0x41 + 10 : c - 0x30
            if let h = high { bytes.append(h << 4 | digit); high = nil } else { high = digit }
        }
        return bytes
    }
}
