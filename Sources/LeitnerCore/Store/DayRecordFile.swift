import LeitnerSystem

/// This device's day record on disk, `.leitner/devices/DEVICE/days` (R4–R7): one `YYYY-MM-DD completed|skipped` line per
/// entry, appended and synced; withdrawn (R15) by an atomic rewrite.
final class DayRecordFile {
    static let name = "days"
    private let directory: FileDescriptor
    private let path: String
    /// The device, inode and size of the file as the box last read or wrote it; nil while there
    /// is none. A file that is no longer this one was replaced or changed behind the box.
    private var seen: (device: UInt64, inode: UInt64, size: Int)?

    init(directory: FileDescriptor, directoryPath: String) throws(BoxError) {
        self.directory = directory
        path = directoryPath + "/" + DayRecordFile.name
    }

    /// Reads the record; a last line a crash cut short is dropped and the file rewritten.
    func load() throws(BoxError) -> DayRecord {
        let bytes: [UInt8]
        do {
            let fd = try FileDescriptor.open(DayRecordFile.name, relativeTo: directory, .readOnly, options: [.noFollow])
            defer { fd.close() }
            bytes = try fd.readAll()
            let (device, inode) = try fd.identity()
            seen = (device, inode, bytes.count)
        } catch where error == .noEntry {
            seen = nil
            return DayRecord()
        } catch {
            throw .failing(.read, path, error)
        }
        let result: DayRecord.ParseResult
        do {
            result = try DayRecord.parse(String(decoding: bytes, as: UTF8.self), fileName: path)
        } catch {
            throw .storeFailure(path: path, reason: "\(error)")
        }
        if result.tornTail { try rewrite(result.record) }
        return result.record
    }

    /// True when the file is not the one the box last read or wrote: a sync tool renamed another
    /// over it, or something changed or removed it. The box reads it again before it appends
    /// (docs/sync.md), so that the entry joins the record on disk rather than a stale copy of it.
    func isReplaced() -> Bool {
        guard let st = try? FileSystem.status(DayRecordFile.name, in: directory) else { return seen != nil }
        guard let seen else { return true }
        return UInt64(st.st_dev) != seen.device || UInt64(st.st_ino) != seen.inode || Int(st.st_size) != seen.size
    }

    /// Appends an entry durably (R17).
    func append(_ entry: DayRecord.Entry, to record: inout DayRecord) throws(BoxError) {
        do {
            try record.append(entry)
        } catch {
            throw .storeFailure(path: path, reason: "\(error)")
        }
        do {
            let fd = try FileDescriptor.open(DayRecordFile.name, relativeTo: directory,
                                             .writeOnly, options: [.append, .create, .noFollow])
            defer { fd.close() }
            try fd.writeAll(Array((DayRecord.line(for: entry) + "\n").utf8))
            try fd.syncData()
            let (device, inode) = try fd.identity()
            seen = (device, inode, try fd.size())
        } catch {
            _ = record.removeLast()
            throw .failing(.append, path, error)
        }
    }

    /// Withdraws the last entry (R15: an undone completion).
    func removeLast(from record: inout DayRecord) throws(BoxError) {
        var shorter = record
        _ = shorter.removeLast()
        try rewrite(shorter)
        record = shorter
    }

    private func rewrite(_ record: DayRecord) throws(BoxError) {
        do {
            let bytes = Array(record.text.utf8)
            try FileSystem.writeAtomically(bytes, to: DayRecordFile.name, in: directory)
            let st = try FileSystem.status(DayRecordFile.name, in: directory)
            seen = (UInt64(st.st_dev), UInt64(st.st_ino), bytes.count)
        } catch {
            throw .failing(.write, path, error)
        }
    }
}
