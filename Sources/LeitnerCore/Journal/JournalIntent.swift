import LeitnerSystem

/// A rename the daemon is about to carry out, written into the journal with the change's log
/// lines (R17), so that the next open can finish it if a crash cuts it off (R18).
///
/// A move and a delete carry a `CardGuard`: the card directory's inode and change time just
/// before the rename. At open, a card still in its from-level with the same inode and change
/// time was never renamed, and the rename is redone. Any rename of a directory sets its change
/// time, so a card the daemon renamed and a hand then moved back (R13) shows a later one and is
/// left where the hand put it — whether the daemon saw that hand move before it died or not.
enum JournalIntent: Equatable {
    /// A card directory from one level to another (a grade, a move, an undo).
    case move(id: String, from: Level, to: Level, guard: CardGuard)
    /// A staged card (`.leitner/tmp/STAGED`, synced) into its level: an add or an adoption.
    case add(staged: String, id: String, to: Level)
    /// A card directory into the trash (`.leitner/trash/TRASHED`), to be removed.
    case delete(id: String, from: Level, guard: CardGuard, trashed: String)
    /// A card directory exchanged with its edited copy (`.leitner/tmp/STAGED`, synced): an edit.
    case edit(staged: String, id: String, in: Level, guard: CardGuard)
    /// A card directory renamed within its level: a new id.
    case rename(id: String, to: String, in: Level, guard: CardGuard)
    /// A staged note (`.leitner/tmp/STAGED`, synced) into `notes/` (R30): `AddCloze`, whose
    /// cards are added in the same record.
    case addNote(staged: String, id: String)
    /// A note's directory renamed within `notes/`, its cards' `cloze-of` rewritten (edits) in the
    /// same record. The guard is the note directory's.
    case renameNote(id: String, to: String, guard: CardGuard)
    /// A note's directory into the trash, its cards deleted in the same record unless kept.
    case deleteNote(id: String, guard: CardGuard, trashed: String)

    /// Appends the intent as one line, tab-separated (ids hold no tab or newline, R20), written
    /// as bytes: every durable change encodes its intents on the box's turn, a grade's among them.
    func append(to bytes: inout [UInt8]) {
        func field(_ text: String) {
            bytes.append(UInt8(ascii: "\t"))
            bytes.append(contentsOf: text.utf8)
        }
        func field(_ mark: CardGuard) {
            bytes.append(UInt8(ascii: "\t"))
            mark.append(to: &bytes)
        }
        switch self {
        case .move(let id, let from, let to, let mark):
            bytes.append(contentsOf: "move".utf8)
            field(id); field(from.name); field(to.name); field(mark)
        case .add(let staged, let id, let to):
            bytes.append(contentsOf: "add".utf8)
            field(staged); field(id); field(to.name)
        case .delete(let id, let from, let mark, let trashed):
            bytes.append(contentsOf: "delete".utf8)
            field(id); field(from.name); field(mark); field(trashed)
        case .edit(let staged, let id, let level, let mark):
            bytes.append(contentsOf: "edit".utf8)
            field(staged); field(id); field(level.name); field(mark)
        case .rename(let id, let newID, let level, let mark):
            bytes.append(contentsOf: "rename".utf8)
            field(id); field(newID); field(level.name); field(mark)
        case .addNote(let staged, let id):
            bytes.append(contentsOf: "note-add".utf8)
            field(staged); field(id)
        case .renameNote(let id, let newID, let mark):
            bytes.append(contentsOf: "note-rename".utf8)
            field(id); field(newID); field(mark)
        case .deleteNote(let id, let mark, let trashed):
            bytes.append(contentsOf: "note-delete".utf8)
            field(id); field(mark); field(trashed)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    static func encode(_ intents: [JournalIntent]) -> [UInt8] {
        var bytes: [UInt8] = []
        for intent in intents { intent.append(to: &bytes) }
        return bytes
    }

    /// The intents of a record; a line that is not one is skipped (records are checksummed, so
    /// only a record from a newer version could hold one).
    static func decode(_ bytes: [UInt8]) -> [JournalIntent] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("move", 5):
                guard let from = Level(name: fields[2]), let to = Level(name: fields[3]),
                      let mark = CardGuard(field: fields[4]) else { return nil }
                return .move(id: fields[1], from: from, to: to, guard: mark)
            case ("add", 4):
                guard let to = Level(name: fields[3]) else { return nil }
                return .add(staged: fields[1], id: fields[2], to: to)
            case ("delete", 5):
                guard let from = Level(name: fields[2]), let mark = CardGuard(field: fields[3]) else { return nil }
                return .delete(id: fields[1], from: from, guard: mark, trashed: fields[4])
            case ("edit", 5):
                guard let level = Level(name: fields[3]), let mark = CardGuard(field: fields[4]) else { return nil }
                return .edit(staged: fields[1], id: fields[2], in: level, guard: mark)
            case ("rename", 5):
                guard let level = Level(name: fields[3]), let mark = CardGuard(field: fields[4]) else { return nil }
                return .rename(id: fields[1], to: fields[2], in: level, guard: mark)
            case ("note-add", 3):
                return .addNote(staged: fields[1], id: fields[2])
            case ("note-rename", 4):
                guard let mark = CardGuard(field: fields[3]) else { return nil }
                return .renameNote(id: fields[1], to: fields[2], guard: mark)
            case ("note-delete", 4):
                guard let mark = CardGuard(field: fields[2]) else { return nil }
                return .deleteNote(id: fields[1], guard: mark, trashed: fields[3])
            default:
                return nil
            }
        }
    }
}

/// What a card directory looked like just before the daemon renamed it: its inode and its change
/// time (`st_ctim`, set by every rename and by changes to the entries in it).
struct CardGuard: Equatable {
    var inode: UInt64
    var changed: Int64

    init(inode: UInt64, changed: Int64) {
        self.inode = inode
        self.changed = changed
    }

    /// The guard of an entry as `lstat` shows it.
    init(_ st: FileStatus) {
        inode = UInt64(st.st_ino)
        changed = st.changeNanoseconds
    }

    /// `INODE:CTIME_NS`.
    init?(field: String) {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let inode = UInt64(parts[0]), let changed = Int64(parts[1]) else { return nil }
        self.inode = inode
        self.changed = changed
    }

    /// `INODE:CTIME_NS`, as `init(field:)` reads it.
    func append(to bytes: inout [UInt8]) {
        CardGuard.appendDecimal(inode, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if changed < 0 { bytes.append(UInt8(ascii: "-")) }
        CardGuard.appendDecimal(changed.magnitude, to: &bytes)
    }

    private static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }
}
