import LeitnerSystem

/// What the box knew of the notes (R30): each note's numbers, the stamp of its directory and files
/// when they were read (`CardStamp`), and the cards of other names than `NOTE.cN` that held them.
/// Kept in `.leitner/local.DEVICE/notes` (docs/store-format.md) so that the first request after
/// the next open need not read every note again, nor look into every card directory for the cards
/// of notes whose cards are named otherwise (the link index: a watch and two `stat`s a card): a
/// note whose stamp holds is known by its numbers, after its watch and a `stat` of its directory
/// and of each of its files, and a number held then is held now when the card that held it is
/// still in the store — the trust the first look already gives a card named `NOTE.cN` (its
/// `cloze-of` is judged when it is read).
///
/// Written at each close, and by a first look that had to read notes (the record was missing,
/// or a daemon killed left it behind), so that a daemon that is never stopped cleanly does not
/// read every note at every start. It names how far the device's review log went when it was
/// written, with a check of the bytes before that point; every change of the daemon since that
/// could move a number to another card (a card added, deleted, renamed, or its `cloze-of`
/// rewritten by a note's rename) is a line after it, so a holder such a line names is not
/// trusted. A change by hand while the daemon was down is seen by the stamps (a note edited, made
/// or renamed) and by the cards' levels (a holder deleted).
struct NoteRecord {
    /// The record's file in the device's private state directory.
    static let fileName = "notes"
    private static let header = Array("leitner notes 2\t".utf8)

    /// One note as it was known.
    struct Entry {
        var stamp: CardStamp
        var numbers: [Int]
        /// The numbers held by a card named otherwise than `NOTE.cN` → that card.
        var holders: [Int: String]
    }

    /// The size of the device's review log when the record was written.
    var logSize: Int
    var entries: [String: Entry]
    /// True when it was read at the log's size it was written at: nothing the daemon did since
    /// has to be checked again, and the next first look need not write it anew.
    var isCurrent = false
    /// True when a line of the log since it was written named a card it had as a holder, which
    /// was left out (`read`): its note's cards are looked for, and the first look records again.
    var leftOutHolders = false

    /// How far behind the log a record may be before the first look that found it so writes it
    /// again, though it read no note and left out no holder: every open reads the log's lines
    /// since the record (about 800 lines here), and a daemon killed after a few changes need not
    /// pay the record's writing — every note's numbers looked up, a file synced — on the turn
    /// of its first request (docs/performance.md, "Cloze notes, media and the voice").
    static let rewriteBehind = 64 * 1024

    /// Writes the record atomically, with the check of the log's bytes before `logSize`. It is a
    /// cache: a failure leaves the old one, which the log's lines since then correct.
    func write(store: Store) throws(Errno) {
        guard let check = NoteRecord.logCheck(store: store, before: logSize) else { return }
        var text = String(decoding: NoteRecord.header, as: UTF8.self) + "\(logSize)\t\(String(check, radix: 16))\n"
        for (note, entry) in entries.sorted(by: { $0.key < $1.key }) {
            // A stamp too young to be trusted, or of too many names, is left out: the note is read
            // at the next open.
            guard let stamp = entry.stamp.encoded else { continue }
            text += note + "\t" + NoteRecord.hex(stamp) + "\t" + entry.numbers.map(String.init).joined(separator: ",")
            for (number, holder) in entry.holders.sorted(by: { $0.key < $1.key }) { text += "\t\(number)\t\(holder)" }
            text += "\n"
        }
        try FileSystem.writeAtomically(Array(text.utf8), to: NoteRecord.fileName, in: store.stateFD)
    }

    /// The record of `store`'s device when the review log still holds the bytes it was written
    /// after; nil when there is none, it is of another log, or a line does not read (the first
    /// look then reads every note). A holder that a line of the log since names as added,
    /// deleted, renamed or edited is left out: the note's cards are then looked for.
    static func read(store: Store) -> NoteRecord? {
        read(store: store, parsed: load(in: store.stateFD))
    }

    /// The record's file in the device's private state directory `stateFD`, parsed, and the check
    /// of its log's bytes it names; nil when there is none or a line does not read. Nothing of the
    /// box is needed: the notes' first look parses it on its thread (`NoteLook`), and `read`
    /// judges it against the log on the turn.
    static func load(in stateFD: FileDescriptor) -> (record: NoteRecord, check: UInt32)? {
        guard let bytes = try? FileSystem.readFile(fileName, in: stateFD, limit: 64 * 1024 * 1024) else { return nil }
        return parse(bytes)
    }

    /// The record `parsed` (`load`) when the review log still holds the bytes it was written after,
    /// as `read(store:)` says.
    static func read(store: Store, parsed: (record: NoteRecord, check: UInt32)?) -> NoteRecord? {
        guard let parsed, parsed.record.logSize <= store.log.size,
              logCheck(store: store, before: parsed.record.logSize) == parsed.check else { return nil }
        var record = parsed.record
        guard record.logSize < store.log.size else {
            record.isCurrent = true
            return record
        }
        var changed = Set<String>()
        do {
            try store.log.forEachEntry(from: record.logSize) { entry, _ in
                switch entry.event {
                case .add, .delete, .edit, .rename:
                    if let id = entry.id { changed.insert(id) }
                    if let id = entry.renamedTo { changed.insert(id) }
                default:
                    break
                }
            }
        } catch {
            return nil
        }
        guard !changed.isEmpty else { return record }
        for (note, entry) in record.entries where entry.holders.values.contains(where: changed.contains) {
            record.entries[note]?.holders = entry.holders.filter { !changed.contains($0.value) }
            record.leftOutHolders = true
        }
        return record
    }

    /// The check of the device's review log's bytes before `offset` (0 for none), as the logged
    /// levels take it (`PeerReadMarks.check`); nil when they cannot be read.
    private static func logCheck(store: Store, before offset: Int) -> UInt32? {
        offset == 0 ? 0 : PeerReadMarks.withLog(store.device, in: store.devicesFD) { PeerReadMarks.check($0, before: offset) }
    }

    /// The record in `bytes`, and the check of its log's bytes it names; nil when a line does
    /// not read. Read from the bytes in place, a line's fields found by index and nothing made of
    /// them but the note's name, its stamp and its holders, since thousands of lines are read at
    /// an open (on the first look's thread, beside the store's scan). Empty lines are passed over.
    private static func parse(_ bytes: [UInt8]) -> (record: NoteRecord, check: UInt32)? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (record: NoteRecord, check: UInt32)? {
        let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ",")
        var start = 0
        // Past empty lines, the next line's range; nil at the end.
        func nextLine() -> Range<Int>? {
            while start < bytes.count, bytes[start] == newline { start += 1 }
            guard start < bytes.count else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != newline { end += 1 }
            defer { start = end }
            return start..<end
        }
        var fields: [Range<Int>] = []
        // The line's fields between tabs, empty ones kept, into `fields`.
        func split(_ line: Range<Int>) {
            fields.removeAll(keepingCapacity: true)
            var from = line.lowerBound
            for index in line where bytes[index] == tab {
                fields.append(from..<index)
                from = index + 1
            }
            fields.append(from..<line.upperBound)
        }
        guard let first = nextLine(), bytes[first].starts(with: header) else { return nil }
        split(first.lowerBound + header.count..<first.upperBound)
        guard fields.count == 2, let size = number(bytes[fields[0]]),
              let check = UInt32(String(decoding: bytes[fields[1]], as: UTF8.self), radix: 16) else {
            return nil
        }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(bytes.count / 40)
        while let line = nextLine() {
            split(line)
            guard fields.count >= 3, fields.count % 2 == 1, let encoded = unhex(bytes[fields[1]]),
                  let stamp = CardStamp(encoded: encoded) else { return nil }
            var numbers: [Int] = []
            // Between commas, empty ones passed over.
            var from = fields[2].lowerBound
            for index in fields[2].lowerBound...fields[2].upperBound where index == fields[2].upperBound || bytes[index] == comma {
                if index > from {
                    guard let value = number(bytes[from..<index]) else { return nil }
                    numbers.append(value)
                }
                from = index + 1
            }
            var holders: [Int: String] = [:]
            // Grown one holder at a time, a note's few holders made the dictionary twice over.
            if fields.count > 3 { holders.reserveCapacity((fields.count - 3) / 2) }
            var index = 3
            while index + 1 < fields.count {
                guard let value = number(bytes[fields[index]]) else { return nil }
                holders[value] = String(decoding: bytes[fields[index + 1]], as: UTF8.self)
                index += 2
            }
            entries[String(decoding: bytes[fields[0]], as: UTF8.self)] = Entry(stamp: stamp, numbers: numbers, holders: holders)
        }
        return (NoteRecord(logSize: size, entries: entries), check)
    }

    /// The decimal number `digits` spell, nil for anything else.
    private static func number(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` in hexadecimal: a stamp's names may hold any byte but `/` and NUL.
    private static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unhex(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            guard let high = value(text[index]), let low = value(text[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
