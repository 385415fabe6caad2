import LeitnerSystem

/// The device's review log `.leitner/devices/DEVICE/log` (R16): one line per event, appended,
/// never rewritten. Only this device writes it; the other devices' logs are read, never written
/// (docs/sync.md).
///
/// A change that must be durable (R17) is not synced here: its lines go first into `Journal`, a
/// preallocated file synced in place, together with the renames that carry the change out, and
/// then into the log without a sync. The log itself is synced at checkpoints; at open the
/// journal's log bytes are written into it again, and its intents redone by the store's repair.
final class ReviewLog {
    static let fileName = "log"

    /// The open file; another when a sync tool or a person replaced the one its path named
    /// (`reopen`).
    private var fd: FileDescriptor
    /// The device and inode of `fd`: what `isReplaced` compares the path with.
    private var identity: (device: UInt64, inode: UInt64)
    /// The length of the start every file the log has been since `takeReplacement` last asked
    /// shares, byte for byte; nil while the log was not replaced.
    private var replacedKeeping: Int?
    /// The offset in this log of each file published beside it (`PublishedHistory`), once read or
    /// written: whether to publish again is decided without reading the file again.
    var publishedOffsets: [String: Int] = [:]
    /// When the store last found `fd` to be the file the path names (`Store.followReplacedLog`);
    /// kept here, beside the identity it confirms, for `Store.logCheckStands`.
    var lookedAt: MonotonicTime?
    let path: String
    /// `.leitner/devices/DEVICE/`, where the log is.
    private let logDirectory: FileDescriptor
    /// `.leitner/local.DEVICE/`, where the journal is.
    private let stateDirectory: FileDescriptor
    private let statePath: String
    /// Nil until it can be made (a full disk at open): durable changes are refused meanwhile,
    /// with the reason, and it is tried again at the next one.
    private var journal: Journal?
    /// Set when a failed change left a record in the journal that could not be taken back: the
    /// next open would redo it. Until a restart, changes are refused so that nothing comes after it.
    private var refusal: BoxError?
    /// Bytes in the file: the offset the next line starts at.
    private(set) var size: Int
    /// The latest time of an entry in the log: of its last line at open, then of what was
    /// appended; nil for an empty log. `Status` compares it with the clock.
    private(set) var latestTime: Int64?
    /// What was appended without `durable` since the log was last synced or journaled: the next
    /// durable append journals it too, so that the journal covers every unsynced byte.
    private var unjournaled: [UInt8] = []

    /// A durable append whose journal record is written and synced, its lines not yet in the log.
    struct Pending {
        fileprivate var bytes: [UInt8]
        fileprivate var unjournaledBefore: [UInt8]
        /// Too large for the journal: written into the log and synced directly.
        fileprivate var direct: Bool
        fileprivate var sizeBefore: Int
        fileprivate var latestTime: Int64?
    }

    /// How many of the journal's records found at open had their lines in the log already: their
    /// renames were done, since a record's lines go into the log only after its renames.
    private var completedRecords = 0

    /// Group commit: journal records are synced by whoever sends a reply (`commitPoint`).
    private let defersSync: Bool

    init(logDirectory: FileDescriptor, logDirectoryPath: String, stateDirectory: FileDescriptor, statePath: String,
         defersSync: Bool = false) throws(BoxError) {
        path = logDirectoryPath + "/" + ReviewLog.fileName
        self.defersSync = defersSync
        self.logDirectory = logDirectory
        self.stateDirectory = stateDirectory
        self.statePath = statePath
        do {
            fd = try FileDescriptor.open(ReviewLog.fileName, relativeTo: logDirectory,
                                         .readWrite, options: [.append, .create, .noFollow])
        } catch {
            throw .failing(.open, path, error)
        }
        do {
            identity = try fd.identity()
        } catch {
            fd.close()
            throw .failing(.stat, path, error, doing: "cannot look at the open file")
        }
        journal = try? Journal(stateDirectory: stateDirectory, statePath: statePath, defersSync: defersSync)
        do {
            completedRecords = try ReviewLog.completed(journal?.recovered ?? [], in: fd)
            try ReviewLog.restore(journal?.recovered ?? [], logDirectory: logDirectory)
            try fd.syncData()
            size = try fd.size()
            latestTime = ReviewLog.lastEntry(of: fd, size: size)?.time
        } catch {
            fd.close()
            throw .failing(.read, path, error, doing: "cannot restore from '\(statePath)/\(Journal.fileName)'")
        }
    }

    deinit { fd.close() }

    // MARK: A file replaced under the daemon

    /// True when the log's path no longer names the open file — a sync tool renamed a newer copy
    /// over it, or it was removed — or the open file's size is not the size the box wrote, since
    /// something changed it in place. An append then would write lines nobody reads, or at
    /// offsets the journal does not know: the store reopens it first (`Store.followReplacedLog`).
    /// One `fstatat`, cheap enough for every request.
    func isReplaced() -> Bool {
        guard let st = try? FileSystem.status(ReviewLog.fileName, in: logDirectory) else { return true }
        return UInt64(st.st_dev) != identity.device || UInt64(st.st_ino) != identity.inode || Int(st.st_size) != size
    }

    /// Opens the file the path names now in place of the open one, and reads its size and latest
    /// time again. Only once the journal has started over (a checkpoint): its records' offsets are
    /// the old file's. The lines only the old file held are not carried over: the copy that
    /// replaced it is a hand change, and a hand change wins (R13).
    func reopen() throws(BoxError) {
        let reopened: FileDescriptor
        do {
            reopened = try FileDescriptor.open(ReviewLog.fileName, relativeTo: logDirectory,
                                               .readWrite, options: [.append, .create, .noFollow])
        } catch {
            throw .failing(.open, path, error, doing: "cannot open again after it was replaced")
        }
        do {
            let kept = min(size, try ReviewLog.commonPrefix(fd, reopened))
            let reopenedIdentity = try reopened.identity()
            let reopenedSize = try reopened.size()
            fd.close()
            fd = reopened
            identity = reopenedIdentity
            size = reopenedSize
            latestTime = ReviewLog.lastEntry(of: reopened, size: reopenedSize)?.time
            unjournaled = []
            replacedKeeping = min(replacedKeeping ?? kept, kept)
        } catch {
            reopened.close()
            throw .failing(.read, path, error, doing: "cannot read after it was replaced")
        }
    }

    /// The length of the start the log kept, byte for byte, through the replacements since the
    /// last call; nil when it was not replaced. The box's caches keyed by a log offset (the open
    /// test's file, the statistics' running totals, the calendar's graded days) are good up to it.
    func takeReplacement() -> Int? {
        defer { replacedKeeping = nil }
        return replacedKeeping
    }

    /// How many leading bytes two files share, read a mebibyte at a time.
    private static func commonPrefix(_ first: FileDescriptor, _ second: FileDescriptor) throws(Errno) -> Int {
        var offset = 0
        while true {
            let one = try first.read(at: offset, upTo: 1 << 20)
            let other = try second.read(at: offset, upTo: 1 << 20)
            let length = min(one.count, other.count)
            var index = 0
            while index < length && one[index] == other[index] { index += 1 }
            offset += index
            if index < length || one.count != other.count || length == 0 { return offset }
        }
    }

    /// The intents of the journal's records found at open whose renames may have been cut off, in
    /// order, for the store's repair: those of the records whose lines had not reached the log.
    /// A journal of a log replaced by hand has none.
    var unfinishedIntents: [JournalIntent] {
        guard let records = journal?.recovered, let first = records.first, first.logOffset <= size else { return [] }
        return records.dropFirst(completedRecords).flatMap { JournalIntent.decode($0.intent) }
    }

    /// The number of leading records whose log bytes the log holds already, byte for byte.
    private static func completed(_ records: [Journal.Record], in log: FileDescriptor) throws(Errno) -> Int {
        guard let first = records.first, let last = records.last else { return 0 }
        guard first.logOffset <= (try log.size()) else { return 0 }
        let bytes = try log.read(at: first.logOffset, upTo: last.logOffset + last.logBytes.count - first.logOffset)
        var count = 0
        for record in records {
            let start = record.logOffset - first.logOffset
            guard start + record.logBytes.count <= bytes.count,
                  bytes[start..<start + record.logBytes.count].elementsEqual(record.logBytes) else { break }
            count += 1
        }
        return count
    }

    /// Writes the journal's log bytes into the log where they belong: the same bytes where the log
    /// kept them, the lost ones where a crash took them (cut off, or zeros). A journal whose
    /// records begin past the log's end, or disagree with bytes the log holds, belongs to another
    /// file — a log replaced by hand or by a sync tool before the daemon noticed (docs/sync.md) —
    /// and its bytes are not written into this one.
    private static func restore(_ records: [Journal.Record], logDirectory: FileDescriptor) throws(Errno) {
        guard let first = records.first, let last = records.last else { return }
        // Not the append descriptor: with O_APPEND, Linux's pwrite ignores the offset.
        let writer = try FileDescriptor.open(ReviewLog.fileName, relativeTo: logDirectory, .readWrite, options: [.noFollow])
        defer { writer.close() }
        guard first.logOffset <= (try writer.size()) else { return }
        let held = try writer.read(at: first.logOffset, upTo: last.logOffset + last.logBytes.count - first.logOffset)
        for record in records {
            let start = record.logOffset - first.logOffset
            if holdsOtherLines(held[min(start, held.count)...], than: record.logBytes) { return }
        }
        for record in records { try writer.writeAll(record.logBytes, at: record.logOffset) }
    }

    /// True when `held`, the log's bytes where `bytes` belong, has other bytes than theirs: not
    /// only fewer (cut off by a crash) or zeros (data a crash lost), but other lines — the log
    /// is another file than the one they were written for.
    static func holdsOtherLines(_ held: ArraySlice<UInt8>, than bytes: [UInt8]) -> Bool {
        for (there, byte) in zip(held, bytes) where there != 0 && there != byte { return true }
        return false
    }

    /// A durable change's bytes, encoded once: `hasRoom` measures them before the store makes
    /// room (a checkpoint), and `prepare` writes the same bytes.
    struct Change {
        fileprivate let bytes: [UInt8]
        fileprivate let intent: [UInt8]
        fileprivate let latestTime: Int64?

        init(_ entries: [LogEntry], intent: [JournalIntent] = []) {
            bytes = ReviewLog.encode(entries)
            self.intent = JournalIntent.encode(intent)
            latestTime = entries.lazy.map(\.time).max()
        }
    }

    /// True when a durable append of `change` fits in the journal as it is; when not, the store
    /// makes room with a checkpoint first.
    func hasRoom(for change: Change) -> Bool {
        guard let journal else { return true }
        return journal.hasRoom(logBytes: unjournaled.count + change.bytes.count, intent: change.intent.count)
    }

    /// Appends entries in one write, unsynced: hand changes and skipped days, which the next
    /// durable append or checkpoint makes durable.
    func append(_ entries: [LogEntry]) throws(BoxError) {
        guard !entries.isEmpty, refusal == nil else { return }
        let bytes = ReviewLog.encode(entries)
        try write(bytes)
        note(entries)
        unjournaled += bytes
        if unjournaled.count > Journal.capacity / 2 { try sync() }
    }

    /// Makes entries durable ahead of the change they record (R17): writes them, with the renames
    /// that will carry the change out, as a journal record and syncs it. Nothing reaches the log
    /// yet: `commit` writes the lines once the renames are done, `withdraw` takes the record back
    /// when they fail.
    func prepare(_ entries: [LogEntry], intent: [JournalIntent] = []) throws(BoxError) -> Pending {
        try prepare(Change(entries, intent: intent))
    }

    /// `prepare` of a change encoded already (`Change`), as the store measured it with `hasRoom`.
    /// - Parameter syncing: false when the caller makes the record durable itself, with a flush
    ///   of `journalFile` before its renames (`Store.beginMovingCards`).
    func prepare(_ change: Change, syncing: Bool = true) throws(BoxError) -> Pending {
        if let refusal = currentRefusal { throw refusal }
        let bytes = change.bytes
        var pending = Pending(bytes: bytes, unjournaledBefore: unjournaled, direct: false, sizeBefore: size,
                              latestTime: change.latestTime)
        let journal = try usableJournal()
        let logBytes = unjournaled.isEmpty ? bytes : unjournaled + bytes
        guard journal.hasRoom(logBytes: logBytes.count, intent: change.intent.count) else {
            // Only a batch without renames is this large (the store makes room for the others):
            // the log synced directly is just as durable.
            guard change.intent.isEmpty else {
                throw .storeFailure(path: journal.path, reason: "a change too large for the journal (\(logBytes.count) bytes)")
            }
            pending.direct = true
            try write(bytes)
            do { try fd.syncData() } catch {
                withdraw(pending)
                throw .failing(.sync, path, error)
            }
            unjournaled = []
            return pending
        }
        do {
            try journal.record(logOffset: size - unjournaled.count, logBytes: logBytes, intent: change.intent, syncing: syncing)
        } catch {
            throw .failing(.write, journal.path, error)
        }
        unjournaled = []
        return pending
    }

    /// Writes a prepared append's lines into the log, once its renames are done.
    /// - Throws: `storeFailure` when the log cannot be appended to; it is then as it was.
    func commit(_ pending: Pending) throws(BoxError) {
        if !pending.direct { try write(pending.bytes) }
        if let time = pending.latestTime { latestTime = max(latestTime ?? time, time) }
    }

    /// Keeps `latestTime` up to date with appended entries.
    private func note(_ entries: [LogEntry]) {
        if let time = entries.map(\.time).max() { latestTime = max(latestTime ?? time, time) }
    }

    /// The entry on the last whole line of the log, read from the end (4 KiB, more than a line
    /// holds); nil when there is none or it is not a log line.
    private static func lastEntry(of fd: FileDescriptor, size: Int) -> LogEntry? {
        let start = max(0, size - 4096)
        guard size > 0, let bytes = try? fd.read(at: start, upTo: size - start),
              let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        let lineStart = bytes[..<end].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex
        return LogLine.parse(bytes[lineStart..<end])
    }

    /// Takes back a prepared append whose change could not be made: the journal's record is
    /// withdrawn, so that the change is neither in the history nor redone at the next open (R16,
    /// R18). When that fails, changes are refused until a restart.
    func withdraw(_ pending: Pending) {
        do throws(Errno) {
            if pending.direct {
                try fd.truncate(to: pending.sizeBefore)
                size = pending.sizeBefore
                try fd.syncData()
            } else {
                try journal?.withdrawLast()
            }
            unjournaled = pending.unjournaledBefore
        } catch {
            // A journal whose sync failed refuses changes already, saying so (`currentRefusal`).
            if journal?.file.failed != nil { return }
            refuseChanges("a failed change could not be taken back from '\(journal?.path ?? path)' (\(error))", after: error)
        }
    }

    /// Appends entries so that they are on disk when it returns (R17): a change with no rename.
    func appendDurably(_ entries: [LogEntry]) throws(BoxError) {
        try appendDurably(Change(entries))
    }

    /// `appendDurably` of a change encoded already (`Change`).
    func appendDurably(_ change: Change) throws(BoxError) {
        let pending = try prepare(change)
        do { try commit(pending) } catch {
            withdraw(pending)
            throw error
        }
    }

    /// Refuses every change from now on, with the reason, until a restart. The refusal keeps the
    /// errno and operation of the failure behind it, so that a client still tells a full disk
    /// from a read-only one.
    func refuseChanges(_ reason: String, after cause: (any Error)? = nil) {
        let (number, operation) = cause.map(BoxError.systemCause(of:)) ?? (nil, nil)
        refusal = .storeFailure(path: path, reason: reason + "; restart the daemon once the disk is writable",
                                errno: number, operation: operation)
    }

    /// The journal, made now if it could not be made before.
    private func usableJournal() throws(BoxError) -> Journal {
        if let journal { return journal }
        do {
            let made = try Journal(stateDirectory: stateDirectory, statePath: statePath, defersSync: defersSync)
            // Whatever an unreadable journal held is lost to it now: the log itself is synced first.
            try fd.syncData()
            try made.startOver()
            unjournaled = []
            journal = made
            return made
        } catch {
            throw .failing(.create, statePath + "/" + Journal.fileName, error)
        }
    }

    /// The journal's open file, for a flush made on another thread (`Store.beginMovingCards`).
    var journalFile: JournalFile? { journal?.file }

    /// The last journal record not yet known durable (group commit); nil when all are.
    var commitPoint: CommitPoint? { journal?.commitPoint }

    /// Makes every journal record written so far durable: before a checkpoint syncs the renames
    /// they carry, so that no rename reaches the disk ahead of its record by the box's doing.
    func flushJournal() throws(BoxError) {
        guard let journal, journal.commitPoint != nil else { return }
        do { try journal.flush() } catch { throw .failing(.sync, journal.path, error) }
    }

    /// Refuses with the reason when changes are refused until a restart (`refuseChanges`).
    func checkWritable() throws(BoxError) {
        if let refusal = currentRefusal { throw refusal }
    }

    /// Why changes are refused until a restart: a failure `refuseChanges` was told of, or a
    /// failed sync of the journal, whichever call's it was (a grade's reply, the day's
    /// admissions, a checkpoint): a second `fdatasync` may succeed with the data lost, so nothing
    /// written since the last good one can be called durable (docs/daemon.md, "Group commit").
    private var currentRefusal: BoxError? {
        if let refusal { return refusal }
        guard let journal, let failed = journal.file.failed else { return nil }
        return .journalSyncFailed(journal.path, failed)
    }

    /// Appends the lines of a change recorded durably elsewhere (a `BatchRecord`), unsynced:
    /// the checkpoint that ends the batch syncs them.
    func appendRecorded(_ bytes: [UInt8]) throws(BoxError) {
        try checkWritable()
        try write(bytes)
    }

    /// Puts a batch record's lines into the log at their offset, as the journal's are at open.
    /// - Returns: true when the log held them already, byte for byte: the batch was finished, as
    ///   its lines are appended only after its renames. False when they were written back now,
    ///   and nil when the record belongs to a log replaced by hand or by a sync tool (it begins
    ///   past the end, or the log holds other lines where its belong).
    func restore(_ bytes: [UInt8], at offset: Int) throws(BoxError) -> Bool? {
        guard offset <= size else { return nil }
        do {
            let held = try fd.read(at: offset, upTo: bytes.count)
            if held == bytes { return true }
            if ReviewLog.holdsOtherLines(held[...], than: bytes) { return nil }
            // Not the append descriptor: with O_APPEND, Linux's pwrite ignores the offset.
            let writer = try FileDescriptor.open(ReviewLog.fileName, relativeTo: logDirectory, .writeOnly, options: [.noFollow])
            defer { writer.close() }
            try writer.writeAll(bytes, at: offset)
            try writer.syncData()
            size = try fd.size()
        } catch {
            throw .failing(.write, path, error, doing: "cannot restore from '\(statePath)/\(BatchRecord.fileName)'")
        }
        return false
    }

    static func encode(_ entries: [LogEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries { LogLine.append(entry, to: &bytes) }
        return bytes
    }

    private func write(_ bytes: [UInt8]) throws(BoxError) {
        do {
            try fd.writeAll(bytes)
            size += bytes.count
        } catch {
            // A partial line would be misread later: cut the file back to its last whole line.
            try? fd.truncate(to: size)
            throw .failing(.append, path, error)
        }
    }

    /// Makes everything appended so far durable in the log itself.
    func sync() throws(BoxError) {
        do { try fd.syncData() } catch { throw .failing(.sync, path, error) }
        unjournaled = []
    }

    /// Starts the journal over, once the log is synced and every rename its records carried is
    /// durable (a checkpoint). A journal that cannot start over is dropped and made again at the
    /// next durable append.
    func startJournalOver() {
        guard refusal == nil, let journal else { return }
        do { try journal.startOver() } catch { self.journal = nil }
    }

    /// The lines of the whole log that are not log lines, by line number (from 1), with the
    /// start of their text: a line mangled or written by hand. They are left where they are and
    /// counted nowhere; `doctor` reports them.
    func damagedLines() throws(BoxError) -> [(line: Int, text: String)] {
        var damaged: [(Int, String)] = []
        var number = 0
        // Read in pieces: a log of a million lines is tens of megabytes, not to be held at once.
        var carried: [UInt8] = []
        var offset = 0
        func check(_ line: ArraySlice<UInt8>) {
            number += 1
            if LogLine.parse(line) == nil {
                damaged.append((number, String(decoding: line.prefix(60), as: UTF8.self)))
            }
        }
        do {
            let reader = try FileDescriptor.open(path, .readOnly, options: [.noFollow])
            defer { reader.close() }
            while true {
                let chunk = try reader.read(at: offset, upTo: 1 << 20)
                if chunk.isEmpty { break }
                offset += chunk.count
                var lineStart = 0
                for (index, byte) in chunk.enumerated() where byte == UInt8(ascii: "\n") {
                    if carried.isEmpty {
                        check(chunk[lineStart..<index])
                    } else {
                        carried += chunk[lineStart..<index]
                        check(carried[...])
                        carried = []
                    }
                    lineStart = index + 1
                }
                carried += chunk[lineStart...]
            }
        } catch {
            throw .failing(.read, path, error)
        }
        if !carried.isEmpty { check(carried[...]) }
        return damaged
    }

    /// The log's first entry, read from its first line alone; nil when it has none.
    func firstEntry() -> LogEntry? {
        guard let bytes = try? fd.read(at: 0, upTo: 4096), let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return LogLine.parse(bytes[..<end])
    }

    /// A reader of the log as it is now, a piece at a time (`ReviewLogReader`): what is appended
    /// after this call is not read.
    func reader(since: Int64? = nil, limit: Int? = nil, from offset: Int = 0) throws(BoxError) -> ReviewLogReader {
        try ReviewLogReader(stateDirectory: logDirectory, path: path, end: size, since: since, limit: limit, from: offset)
    }

    /// Calls `body` with each entry from byte `offset` on, and the offset of the line after it,
    /// reading the log a piece at a time.
    func forEachEntry(from offset: Int, _ body: (LogEntry, Int) -> Void) throws(BoxError) {
        try forEachLine(from: offset) { line, end in body(line.entry, end) }
    }

    /// `forEachEntry(from:_:)` with each line's fields as read from its bytes (`LogLine.Fields`,
    /// its ids valid during the call): what reads the whole log and needs no string of most
    /// lines (the open of a store without its local state, the places' ledger, the week's counts).
    func forEachLine(from offset: Int, _ body: (LogLine.Fields, Int) -> Void) throws(BoxError) {
        // Nothing appended since: no descriptor opened, so a request that reads nothing new (Status's
        // week) still answers when the daemon has none to spare (accepting paused on EMFILE).
        guard offset < size else { return }
        let reader = try reader(from: offset)
        while try reader.nextLines(upTo: 4096, body) > 0 {}
    }

    /// The entries from byte `offset` on, each with the offset of the line after it. A last line
    /// without its newline (a write a crash cut short) is left out and cut off.
    func entries(from offset: Int) throws(BoxError) -> [(entry: LogEntry, end: Int)] {
        let bytes: [UInt8]
        do {
            let reader = try FileDescriptor.open(path, .readOnly, options: [.noFollow])
            defer { reader.close() }
            try reader.seek(to: offset)
            bytes = try reader.readAll()
        } catch {
            throw .failing(.read, path, error)
        }
        var result: [(LogEntry, Int)] = []
        var lineStart = 0
        var wholeLength = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if let entry = LogLine.parse(bytes[lineStart..<index]) { result.append((entry, offset + index + 1)) }
            lineStart = index + 1
            wholeLength = index + 1
        }
        if wholeLength < bytes.count, offset + bytes.count == size {
            try? fd.truncate(to: offset + wholeLength)
            size = offset + wholeLength
        }
        return result
    }
}
