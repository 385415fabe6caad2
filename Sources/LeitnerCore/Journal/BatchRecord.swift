import LeitnerSystem

/// `.leitner/batch`: the write-ahead record of one batch of new cards (`AddMany`), too large for
/// the 64 KiB journal (docs/store-format.md, "Batches").
///
/// It plays the journal's part for a batch: the batch's log lines and its intents — one `add`
/// rename per card, from `.leitner/tmp/` into a level — written and synced before the first
/// rename, so that the reply can come before the renames themselves are synced (R17), and the
/// next open finishes what a crash cut off (R18). The staged cards are synced before the record
/// is written: a record on disk never names a card whose files might not be.
///
/// The file exists only from the batch's record until the checkpoint that ends the batch, which
/// removes it; no journal record is written in between. Framing as the journal's: a 32-byte
/// header — magic `LLB1`, log-bytes length `u32`, intent length `u32`, CRC-32C `u32` of the rest
/// of the header and the payload, 8 reserved bytes, the log offset the lines belong at `u64`,
/// little-endian — then the log bytes, then the intent lines. A torn or damaged file was never
/// synced, so no rename of its batch was begun: it is ignored.
struct BatchRecord: Equatable {
    static let fileName = "batch"
    private static let magic: UInt32 = 0x3142_4C4C // "LLB1" on disk

    /// Where in the log the lines belong: the log's size when the batch began.
    var logOffset: Int
    var logBytes: [UInt8]
    var intent: [UInt8]

    /// The file's bytes.
    var encoded: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Journal.headerSize)
        bytes.reserveCapacity(Journal.headerSize + logBytes.count + intent.count)
        Journal.store(BatchRecord.magic, in: &bytes, at: 0)
        Journal.store(UInt32(logBytes.count), in: &bytes, at: 4)
        Journal.store(UInt32(intent.count), in: &bytes, at: 8)
        Journal.store(UInt64(logOffset), in: &bytes, at: 24)
        bytes += logBytes
        bytes += intent
        let sum = Journal.checksum(bytes[0..<Journal.headerSize], payload: bytes[Journal.headerSize...])
        Journal.store(sum, in: &bytes, at: 12)
        return bytes
    }

    /// The record in a file's bytes; nil when they are not a whole, intact record.
    init?(decoding bytes: [UInt8]) {
        let header = Journal.headerSize
        guard bytes.count >= header, Journal.readUInt32(bytes, at: 0) == BatchRecord.magic else { return nil }
        let logLength = Int(Journal.readUInt32(bytes, at: 4))
        let intentLength = Int(Journal.readUInt32(bytes, at: 8))
        let offset = Int(truncatingIfNeeded: Journal.readUInt64(bytes, at: 24))
        guard offset >= 0, bytes.count == header + logLength + intentLength,
              Journal.checksum(bytes[0..<header], payload: bytes[header...]) == Journal.readUInt32(bytes, at: 12)
        else { return nil }
        logOffset = offset
        logBytes = Array(bytes[header..<header + logLength])
        intent = Array(bytes[(header + logLength)...])
    }

    init(logOffset: Int, logBytes: [UInt8], intent: [UInt8]) {
        self.logOffset = logOffset
        self.logBytes = logBytes
        self.intent = intent
    }

    /// Writes the record and makes it durable, its directory entry included.
    func write(in stateDirectory: FileDescriptor) throws(Errno) {
        let file = try FileDescriptor.open(BatchRecord.fileName, relativeTo: stateDirectory,
                                           .writeOnly, options: [.create, .truncate, .noFollow], mode: 0o600)
        defer { file.close() }
        try file.writeAll(encoded)
        try file.syncData()
        try stateDirectory.sync()
    }

    /// The record left in `.leitner/`, nil when there is none or it is torn.
    static func read(in stateDirectory: FileDescriptor) -> BatchRecord? {
        guard let bytes = try? FileSystem.readFile(fileName, in: stateDirectory, limit: 1 << 30) else { return nil }
        return BatchRecord(decoding: bytes)
    }

    /// Removes the record, if there is one; the caller syncs the directory.
    static func remove(in stateDirectory: FileDescriptor) throws(Errno) {
        do { try FileSystem.removeFile(fileName, in: stateDirectory) } catch where error == .noEntry {}
    }
}
