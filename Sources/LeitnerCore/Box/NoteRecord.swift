import LeitnerSystem

/// What the box knew of the notes (R30) when it last closed: each note's numbers, the stamp of the
/// text they were read from, and the cards of other names than `NOTE.cN` that held them. Kept in
/// `.leitner/local.DEVICE/notes` (docs/store-format.md) so that the first request after the next
/// open need not read every note again, nor look into every card directory for the cards of
/// notes whose cards are named otherwise (the link index: a watch and two `stat`s a card): a note
/// whose text has the stamp recorded is known by its numbers, one `stat` after its watch, and a
/// number held then is held now when the card that held it is still in the store — the trust the
/// first look already gives a card named `NOTE.cN` (its `cloze-of` is judged when it is read).
///
/// Only what the daemon left behind when it closed counts: the record names the size of the
/// device's review log then, and one whose size is another is ignored. Every change of the daemon
/// since (a note renamed, a card's `cloze-of` rewritten, a card added or deleted) is logged, so a
/// daemon that was killed after it leaves a record that is ignored, and the next first look reads
/// every note as it did before. A change by hand while the daemon was down is seen by the stamps
/// (a note edited, made or renamed) and by the cards' levels (a holder deleted).
struct NoteRecord {
    /// The record's file in the device's private state directory.
    static let fileName = "notes"
    private static let header = "leitner notes 1"

    /// One note as it was known.
    struct Entry: Equatable {
        var stamp: NoteStamp
        var numbers: [Int]
        /// The numbers held by a card named otherwise than `NOTE.cN` → that card.
        var holders: [Int: String]
    }

    /// The size of the device's review log when the record was written.
    var logSize: Int
    var entries: [String: Entry]

    /// Writes the record atomically. It is a cache: a failure leaves the old one, which the log's
    /// size then disowns.
    func write(in directory: FileDescriptor) throws(Errno) {
        var text = NoteRecord.header + "\t\(logSize)\n"
        for (note, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let stamp = entry.stamp
            // A time before 1970 is left out (the note is read at the next open), so that a line
            // holds digits alone.
            guard stamp.modified >= 0, stamp.changed >= 0 else { continue }
            text += "\(note)\t\(stamp.textName)\t\(stamp.inode)\t\(stamp.size)\t\(stamp.modified)\t\(stamp.changed)\t"
            text += entry.numbers.map(String.init).joined(separator: ",")
            for (number, holder) in entry.holders.sorted(by: { $0.key < $1.key }) { text += "\t\(number)\t\(holder)" }
            text += "\n"
        }
        try FileSystem.writeAtomically(Array(text.utf8), to: NoteRecord.fileName, in: directory)
    }

    /// The record in `directory`, when it was written at the review log's size `logSize`; nil when
    /// there is none, it is another's, or a line does not read (the first look then reads every note).
    static func read(in directory: FileDescriptor, logSize: Int) -> NoteRecord? {
        guard let bytes = try? FileSystem.readFile(fileName, in: directory, limit: 64 * 1024 * 1024) else { return nil }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)[...]
        guard let first = lines.popFirst(), String(decoding: first, as: UTF8.self) == header + "\t\(logSize)" else { return nil }
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(lines.count)
        for line in lines {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count >= 7, fields.count % 2 == 1,
                  let inode = number(fields[2]), let size = number(fields[3]),
                  let modified = number(fields[4]), let changed = number(fields[5]) else { return nil }
            let textName = String(decoding: fields[1], as: UTF8.self)
            guard Store.noteTextNames.contains(textName) else { return nil }
            var numbers: [Int] = []
            for field in fields[6].split(separator: UInt8(ascii: ",")) {
                guard let value = number(field) else { return nil }
                numbers.append(Int(value))
            }
            var holders: [Int: String] = [:]
            var index = 7
            while index + 1 < fields.count {
                guard let value = number(fields[index]) else { return nil }
                holders[Int(value)] = String(decoding: fields[index + 1], as: UTF8.self)
                index += 2
            }
            entries[String(decoding: fields[0], as: UTF8.self)] = Entry(
                stamp: NoteStamp(textName: textName, inode: UInt64(bitPattern: inode), size: size, modified: modified, changed: changed),
                numbers: numbers, holders: holders)
        }
        return NoteRecord(logSize: logSize, entries: entries)
    }

    /// The decimal number `digits` spell (an inode's bits as `Int64`), nil for anything else:
    /// read from the bytes, since thousands of lines are read at an open.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return Int64(bitPattern: value)
    }
}

/// A note's text file as a `stat` shows it: its name, inode, size and times. A text written in
/// place changes its times and size, one renamed over it has another inode; a link is never
/// stamped (its target may change with no change of its own).
struct NoteStamp: Equatable {
    var textName: String
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    /// The stamp of the note `note`'s text, taken before it is read so that a change after the read
    /// differs from it. Nil when the note has no text file or two, its text is no regular file, or
    /// it changed within `DirectoryStamp.racyWindow` (a write later in the same tick of the
    /// kernel's clock could leave the same stamp).
    static func take(_ note: String, in rootFD: FileDescriptor) -> NoteStamp? {
        var found: NoteStamp?
        for name in Store.noteTextNames {
            guard let status = try? FileSystem.status(Store.notesDirectoryName + "/" + note + "/" + name, in: rootFD) else { continue }
            guard found == nil, status.kind == .file else { return nil }
            found = NoteStamp(name, status)
        }
        guard let found, RealTime.nanoseconds - max(found.modified, found.changed) >= DirectoryStamp.racyWindow else { return nil }
        return found
    }

    /// True when the note's text is as stamped: one `stat`.
    func holds(_ note: String, in rootFD: FileDescriptor) -> Bool {
        guard let status = try? FileSystem.status(Store.notesDirectoryName + "/" + note + "/" + textName, in: rootFD),
              status.kind == .file else { return false }
        return NoteStamp(textName, status) == self
    }

    init(textName: String, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.textName = textName
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    private init(_ name: String, _ status: FileStatus) {
        self.init(textName: name, inode: UInt64(status.st_ino), size: Int64(status.st_size),
                  modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                  changed: status.changeNanoseconds)
    }
}
