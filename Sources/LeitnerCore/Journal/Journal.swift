import LeitnerSystem

/// `.leitner/journal`: the write-ahead journal of the daemon's own changes (R17, R18), made
/// durable for the price of one data-block flush.
///
/// Each record holds two things: the review log's new bytes, and the *intent* — the renames the
/// change is about to carry out, each with a guard that says what the card directory looked like
/// just before (docs/store-format.md, "The journal"). At open, the log bytes are written into the
/// log again (which puts back whatever a crash or power loss took from its tail) and the intents
/// are redone where a crash cut them off and no hand has touched the card since (R13, R18). Only
/// records the daemon wrote — framed, numbered and checksummed — are ever redone: a line a
/// person adds to the log is history, never an instruction.
///
/// Syncing the log itself after an append costs a commit of the file system's own journal,
/// because the log grew and its size is metadata. This file is written full of zeros once,
/// synced, and from then on only overwritten in place, so `fdatasync` has no metadata to write.
///
/// A record is a 32-byte header — magic `LLJ2`, log-bytes length `u32`, intent length `u32`,
/// CRC-32C `u32` of the rest of the header and the payload, sequence number `u64`, the log offset
/// the log bytes belong at `u64`, all little-endian — then the log bytes, then the intent.
/// Records follow each other from offset 0; reading stops at the first one that is torn, not a
/// record, or does not continue the one before (the next sequence number, a log offset not
/// before the previous record's end): what lies after it is left over from before the last
/// start-over.
final class Journal {
    static let fileName = "journal"
    /// Several hundred changes between checkpoints; small enough for a nearly full disk.
    static let capacity = 64 * 1024
    static let headerSize = 32
    private static let magic: UInt32 = 0x324A_4C4C // "LLJ2" on disk

    struct Record: Equatable {
        var sequence: UInt64
        /// Where in the log the bytes belong.
        var logOffset: Int
        var logBytes: [UInt8]
        var intent: [UInt8]
    }

    let path: String
    /// The open file, shared with the threads that flush it under group commit.
    let file: JournalFile
    private var fd: FileDescriptor { file.fd }
    /// Group commit: a record is written but not synced; whoever sends a reply flushes first
    /// (`commitPoint`). Otherwise each record is synced as it is written.
    private let defersSync: Bool
    /// Where the next record goes.
    private var position = 0
    private var nextSequence: UInt64
    /// Where the last record written begins, for `withdrawLast`.
    private var lastRecordStart: Int?
    /// The records found at open, still to be redone; spent at the first `startOver`.
    private(set) var recovered: [Record]

    /// Opens the journal, creating it full of zeros (synced, and its directory) when it is
    /// missing or not of the expected size. The records it holds are kept in `recovered` and new
    /// records follow them, until `startOver`.
    init(stateDirectory: FileDescriptor, statePath: String, defersSync: Bool = false) throws(Errno) {
        self.defersSync = defersSync
        path = statePath + "/" + Journal.fileName
        var file = try? FileDescriptor.open(Journal.fileName, relativeTo: stateDirectory, .readWrite, options: [.noFollow])
        if let existing = file, (try? existing.size()) != Journal.capacity {
            existing.close()
            file = nil
        }
        var bytes: [UInt8] = []
        if let file {
            do { bytes = try file.readAll(limit: Journal.capacity) } catch {
                file.close()
                throw error
            }
        } else {
            try FileSystem.writeAtomically([UInt8](repeating: 0, count: Journal.capacity), to: Journal.fileName,
                                           in: stateDirectory, mode: 0o600)
            file = try FileDescriptor.open(Journal.fileName, relativeTo: stateDirectory, .readWrite, options: [.noFollow])
        }
        guard let opened = file else { throw Errno.noEntry }
        self.file = JournalFile(fd: opened)
        let (records, end) = Journal.parse(bytes)
        recovered = records
        position = end
        nextSequence = records.last.map { $0.sequence &+ 1 } ?? Journal.freshSequence()
    }

    /// The records in a journal's bytes, in order, and where the chain ends.
    static func parse(_ bytes: [UInt8]) -> (records: [Record], end: Int) {
        var records: [Record] = []
        var position = 0
        while position + headerSize <= bytes.count {
            guard readUInt32(bytes, at: position) == magic else { break }
            let logLength = Int(readUInt32(bytes, at: position + 4))
            let intentLength = Int(readUInt32(bytes, at: position + 8))
            let sequence = readUInt64(bytes, at: position + 16)
            let logOffset = Int(truncatingIfNeeded: readUInt64(bytes, at: position + 24))
            let payloadStart = position + headerSize
            guard logLength <= bytes.count - payloadStart, intentLength <= bytes.count - payloadStart - logLength,
                  logOffset >= 0 else { break }
            // Log bytes between two records were synced into the log directly (a batch too large
            // for the journal): a gap is fine, going back is not.
            if let previous = records.last {
                guard sequence == previous.sequence &+ 1,
                      logOffset >= previous.logOffset + previous.logBytes.count else { break }
            }
            let payloadEnd = payloadStart + logLength + intentLength
            guard checksum(bytes[position..<position + headerSize], payload: bytes[payloadStart..<payloadEnd])
                    == readUInt32(bytes, at: position + 12) else { break }
            records.append(Record(sequence: sequence, logOffset: logOffset,
                                  logBytes: Array(bytes[payloadStart..<payloadStart + logLength]),
                                  intent: Array(bytes[payloadStart + logLength..<payloadEnd])))
            position = payloadEnd
        }
        return (records, position)
    }

    /// True when a record of this many bytes fits in the room left.
    func hasRoom(logBytes: Int, intent: Int) -> Bool {
        position + Journal.headerSize + logBytes + intent <= Journal.capacity
    }

    /// True when a record of this many bytes fits in an empty journal.
    static func canHold(logBytes: Int, intent: Int) -> Bool {
        headerSize + logBytes + intent <= capacity
    }

    /// The last record written and not yet known durable, for a reply to wait for; nil when
    /// every record is on disk.
    var commitPoint: CommitPoint? {
        let number = file.lastWritten
        return file.isDurable(number) ? nil : CommitPoint(file: file, number: number)
    }

    /// Makes every record written so far durable, in the turn (before a checkpoint syncs the
    /// renames they carry).
    func flush() throws(Errno) { try file.flush() }

    /// Writes a record, and syncs it unless sync is deferred (group commit) or left to the caller
    /// (`syncing` false: a `file.flush()` before its renames, `Store.beginMovingCards`). The
    /// caller checked `hasRoom`.
    func record(logOffset: Int, logBytes: [UInt8], intent: [UInt8], syncing: Bool = true) throws(Errno) {
        let syncsNow = syncing && !defersSync
        if let failed = file.failed { throw failed }
        precondition(hasRoom(logBytes: logBytes.count, intent: intent.count), "journal record without room")
        var bytes = [UInt8](repeating: 0, count: Journal.headerSize)
        bytes.reserveCapacity(Journal.headerSize + logBytes.count + intent.count)
        Journal.store(Journal.magic, in: &bytes, at: 0)
        Journal.store(UInt32(logBytes.count), in: &bytes, at: 4)
        Journal.store(UInt32(intent.count), in: &bytes, at: 8)
        Journal.store(nextSequence, in: &bytes, at: 16)
        Journal.store(UInt64(logOffset), in: &bytes, at: 24)
        bytes += logBytes
        bytes += intent
        let sum = Journal.checksum(bytes[0..<Journal.headerSize], payload: bytes[Journal.headerSize...])
        Journal.store(sum, in: &bytes, at: 12)
        do {
            try fd.writeAll(bytes, at: position)
            // A sync left for later (group commit) comes within microseconds, after the renames:
            // the record's block starts for the disk now, so that the disk writes it while the
            // renames are made and the sync waits only for what is left (docs/daemon.md, "Durable
            // `Grade`").
            if !syncsNow { fd.startWriteBack(at: position, count: bytes.count) }
            // Through the file's flush, so that a failed sync refuses later changes here too, as
            // under group commit: a second sync may succeed with this record lost.
            if syncsNow { try file.flush() }
        } catch {
            // Whether the record reached the disk is unknown: make sure it does not count.
            try? fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: position)
            try? fd.syncData()
            throw error
        }
        lastRecordStart = position
        position += bytes.count
        nextSequence &+= 1
        let number = file.noteWritten()
        if syncsNow { file.noteDurable(upTo: number) }
    }

    /// Takes back the last record written: its change did not happen after all.
    func withdrawLast() throws(Errno) {
        guard let start = lastRecordStart else { return }
        try fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: start)
        try file.flush()
        position = start
        nextSequence &-= 1
        lastRecordStart = nil
    }

    /// Starts over at the head: the records so far are spent (the log holds them, synced, and
    /// their renames are durable). A new run of sequence numbers begins, so that no record left
    /// from an earlier run can pass for the continuation of a new one.
    func startOver() throws(Errno) {
        try fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: 0)
        try file.flush()
        position = 0
        lastRecordStart = nil
        recovered = []
        nextSequence = Journal.freshSequence()
    }

    private static func freshSequence() -> UInt64 {
        var random = SystemRandomNumberGenerator()
        return random.next() >> 1
    }

    /// CRC-32C of the header without its magic and checksum fields, then the payload.
    static func checksum(_ header: ArraySlice<UInt8>, payload: ArraySlice<UInt8>) -> UInt32 {
        let start = header.startIndex
        var sum = CRC32C.checksum(header[start + 4..<start + 12])
        sum = CRC32C.checksum(header[start + 16..<start + headerSize], continuing: sum)
        return CRC32C.checksum(payload, continuing: sum)
    }

    static func store<T: FixedWidthInteger>(_ value: T, in bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func readUInt64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
