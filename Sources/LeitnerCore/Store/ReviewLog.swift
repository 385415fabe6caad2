import Glibc

/// The review log `.leitner/log` (R16). It is also the store's write-ahead journal: a change is
/// appended and made durable before the rename that carries it out, so one flush makes a grade
/// durable (R17) and replaying the tail repairs a rename a crash cut off (R18).
///
/// The flush is not of the log: a durable append is first written to `Journal`, a preallocated
/// file synced in place, then to the log without a sync. The log itself is synced at checkpoints;
/// at open the journal's records are written into it again (see `Journal`).
final class ReviewLog {
    static let fileName = "log"

    private let fd: FileDescriptor
    private let path: String
    /// Nil when it could not be made (a full disk) or could not start over: then the log itself
    /// is synced.
    private var journal: Journal?
    /// Set when a failed write left a record in the journal that could not be taken back: it
    /// would be written into the log at the next open, over whatever came after it. Until a
    /// restart, changes are refused (and hand changes go unlogged) so that nothing comes after it.
    private var refusal: String?
    /// Bytes in the file: the offset the next line starts at.
    private(set) var size: Int
    /// What was appended without `durable` since the log was last synced or journaled: the next
    /// durable append journals it too, so the journal always continues the synced log.
    private var unjournaled: [UInt8] = []

    init(stateDirectory: FileDescriptor, statePath: String) throws(BoxError) {
        path = statePath + "/" + ReviewLog.fileName
        do {
            fd = try FileDescriptor.open(ReviewLog.fileName, relativeTo: stateDirectory,
                                         flags: O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW)
        } catch {
            throw .storeFailure(path: path, reason: "cannot open: \(error)")
        }
        do {
            try ReviewLog.restore(Journal.records(stateDirectory: stateDirectory), stateDirectory: stateDirectory)
            try fd.syncData()
            size = try fd.size()
        } catch {
            fd.close()
            throw .storeFailure(path: path, reason: "cannot restore from '\(statePath)/\(Journal.fileName)': \(error)")
        }
        journal = try? Journal(stateDirectory: stateDirectory, statePath: statePath)
    }

    deinit { fd.close() }

    /// Writes the journal's records into the log where they belong: the same bytes where the log
    /// kept them, the lost ones where a crash took them. A journal whose records begin past the
    /// log's end belongs to a log replaced by hand, and is ignored.
    private static func restore(_ records: [Journal.Record], stateDirectory: FileDescriptor) throws(Errno) {
        guard let first = records.first else { return }
        // Not the append descriptor: with O_APPEND, Linux's pwrite ignores the offset.
        let writer = try FileDescriptor.open(ReviewLog.fileName, relativeTo: stateDirectory, flags: O_WRONLY | O_NOFOLLOW)
        defer { writer.close() }
        guard first.logOffset <= (try writer.size()) else { return }
        for record in records { try writer.writeAll(record.bytes, at: record.logOffset) }
    }

    /// Appends entries in one write; with `durable`, they are on disk when it returns (R17).
    func append(_ entries: [LogEntry], durable: Bool) throws(BoxError) {
        guard !entries.isEmpty else { return }
        if let refusal {
            if durable { throw .storeFailure(path: path, reason: refusal) }
            return
        }
        var bytes: [UInt8] = []
        for entry in entries { bytes.append(contentsOf: LogLine.format(entry).utf8) }
        if durable, let journal {
            let record = Journal.Record(logOffset: size - unjournaled.count, bytes: unjournaled + bytes)
            let recorded: Bool
            do { recorded = try journal.record(record) } catch {
                throw .storeFailure(path: journal.path, reason: "cannot write: \(error)")
            }
            if recorded {
                do { try write(bytes) } catch {
                    // The caller reports a failure: the change must not come back at open.
                    takeBack(journal)
                    throw error
                }
                unjournaled = []
                return
            }
            // No room left in the journal: sync the log itself, which spends the journal.
        }
        try write(bytes)
        if durable {
            try sync()
        } else if journal != nil {
            unjournaled += bytes
            if unjournaled.count > Journal.capacity { try sync() }
        }
    }

    /// Takes back the journal's last record, whose line could not be appended to the log. Failing
    /// that, syncs the log and empties the journal, which hides the record just as well; failing
    /// that too, refuses further changes (`refusal`).
    private func takeBack(_ journal: Journal) {
        do { try journal.withdrawLast() } catch {
            do throws(Errno) {
                try fd.syncData()
                try journal.startOver()
                unjournaled = []
            } catch {
                refusal = "a failed change could not be taken back from '\(journal.path)' (\(error)); "
                    + "restart the daemon once the disk is writable"
            }
        }
    }

    private func write(_ bytes: [UInt8]) throws(BoxError) {
        do {
            try fd.writeAll(bytes)
            size += bytes.count
        } catch {
            // A partial line would be misread later: cut the file back to its last whole line.
            try? fd.truncate(to: size)
            throw .storeFailure(path: path, reason: "cannot append: \(error)")
        }
    }

    /// Makes everything appended so far durable in the log itself; the journal starts over.
    func sync() throws(BoxError) {
        do { try fd.syncData() } catch { throw .storeFailure(path: path, reason: "cannot sync: \(error)") }
        unjournaled = []
        guard let journal, refusal == nil else { return }
        do { try journal.startOver() } catch {
            // Its records are all in the log, synced: harmless at the next open, but no longer a
            // chain new records could continue. The log is synced per change from now on.
            self.journal = nil
        }
    }

    /// The entries from byte `offset` on, each with the offset of the line after it. A last line
    /// without its newline (a write a crash cut short) is left out and cut off.
    func entries(from offset: Int) throws(BoxError) -> [(entry: LogEntry, end: Int)] {
        let bytes: [UInt8]
        do {
            let reader = try FileDescriptor.open(path, flags: O_RDONLY | O_NOFOLLOW)
            defer { reader.close() }
            try reader.seek(to: offset)
            bytes = try reader.readAll()
        } catch {
            throw .storeFailure(path: path, reason: "cannot read: \(error)")
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
