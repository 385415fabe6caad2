import Glibc

/// `.leitner/journal`: where the review log's newest lines are made durable (R17) for the price
/// of one data-block flush.
///
/// Syncing the log itself after an append costs a commit of the file system's own journal,
/// because the log grew and its size is metadata; on ext4 with a rename in the same commit that
/// is two device flushes. This file is written full of zeros once, synced, and from then on only
/// overwritten in place, so `fdatasync` has no metadata to write: one data block and one flush.
///
/// A durable append writes the log's new bytes here as a record and syncs it, and only then
/// writes them to the log, unsynced. At open the records are written into the log again, which
/// puts back whatever a crash or power loss took from its tail (R18). Once the log itself is
/// synced (a checkpoint) the records are spent and the journal starts over at its head.
///
/// A record is a 20-byte header — magic, payload length, the log offset the payload belongs at,
/// CRC-32C of those and the payload, little-endian — and the payload. Records follow each other
/// from offset 0. Reading stops at the first record that is torn, not a record, or does not
/// continue the log where the one before ended: what lies after it is left over from before the
/// last start-over, and already in the synced log.
final class Journal {
    static let fileName = "journal"
    /// Several hundred grades between syncs of the log; small enough for a nearly full disk.
    static let capacity = 64 * 1024
    static let headerSize = 20
    private static let magic: UInt32 = 0x314A_4C4C // "LLJ1" on disk

    struct Record: Equatable {
        /// Where in the log the bytes belong.
        var logOffset: Int
        var bytes: [UInt8]
    }

    let path: String
    private let fd: FileDescriptor
    /// Where the next record goes.
    private var position = 0
    /// Where the last record written begins, for `withdrawLast`.
    private var lastRecordStart: Int?

    /// Opens the journal, creating it full of zeros (synced, and its directory) when it is
    /// missing or not of the expected size, and starts it over. Call only once the records it
    /// held are in the log and the log is synced.
    init(stateDirectory: FileDescriptor, statePath: String) throws(Errno) {
        path = statePath + "/" + Journal.fileName
        var file = try? FileDescriptor.open(Journal.fileName, relativeTo: stateDirectory, flags: O_RDWR | O_NOFOLLOW)
        if let existing = file, (try? existing.size()) != Journal.capacity {
            existing.close()
            file = nil
        }
        if file == nil {
            try FileSystem.writeAtomically([UInt8](repeating: 0, count: Journal.capacity), to: Journal.fileName,
                                           in: stateDirectory, mode: 0o600)
            file = try FileDescriptor.open(Journal.fileName, relativeTo: stateDirectory, flags: O_RDWR | O_NOFOLLOW)
        }
        fd = file!
        do { try startOver() } catch {
            fd.close()
            throw error
        }
    }

    deinit { fd.close() }

    /// The records the journal in `stateDirectory` holds, in order; none when it is missing or
    /// unreadable.
    static func records(stateDirectory: FileDescriptor) -> [Record] {
        guard let bytes = try? FileSystem.readFile(Journal.fileName, in: stateDirectory, limit: 16 * capacity) else { return [] }
        return parse(bytes)
    }

    static func parse(_ bytes: [UInt8]) -> [Record] {
        var records: [Record] = []
        var position = 0
        var expectedOffset: Int?
        while position + headerSize <= bytes.count {
            guard readUInt32(bytes, at: position) == magic else { break }
            let length = Int(readUInt32(bytes, at: position + 4))
            let logOffset = Int(truncatingIfNeeded: readUInt64(bytes, at: position + 8))
            let payloadStart = position + headerSize
            guard length <= bytes.count - payloadStart, logOffset >= 0,
                  expectedOffset == nil || expectedOffset == logOffset else { break }
            let payload = bytes[payloadStart..<payloadStart + length]
            let sum = CRC32C.checksum(payload, continuing: CRC32C.checksum(bytes[position + 4..<position + 16]))
            guard sum == readUInt32(bytes, at: position + 16) else { break }
            records.append(Record(logOffset: logOffset, bytes: Array(payload)))
            expectedOffset = logOffset + length
            position = payloadStart + length
        }
        return records
    }

    /// Writes a record and syncs it; false, writing nothing, when it does not fit in the room left.
    func record(_ record: Record) throws(Errno) -> Bool {
        guard position + Journal.headerSize + record.bytes.count <= Journal.capacity else { return false }
        var header: [UInt8] = []
        header.reserveCapacity(Journal.headerSize + record.bytes.count)
        Journal.append(Journal.magic, to: &header)
        Journal.append(UInt32(record.bytes.count), to: &header)
        Journal.append(UInt64(record.logOffset), to: &header)
        let sum = CRC32C.checksum(record.bytes, continuing: CRC32C.checksum(header[4..<16]))
        Journal.append(sum, to: &header)
        do {
            try fd.writeAll(header + record.bytes, at: position)
            try fd.syncData()
        } catch {
            // Whether the record reached the disk is unknown: make sure it does not count.
            try? fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: position)
            try? fd.syncData()
            throw error
        }
        lastRecordStart = position
        position += Journal.headerSize + record.bytes.count
        return true
    }

    /// Takes back the last record written: its change did not happen after all.
    func withdrawLast() throws(Errno) {
        guard let start = lastRecordStart else { return }
        try fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: start)
        try fd.syncData()
        position = start
        lastRecordStart = nil
    }

    /// Starts over at the head: the records so far are spent (the log holds them, synced).
    func startOver() throws(Errno) {
        try fd.writeAll([UInt8](repeating: 0, count: Journal.headerSize), at: 0)
        try fd.syncData()
        position = 0
        lastRecordStart = nil
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func readUInt64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
