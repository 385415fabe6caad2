import Glibc
import LeitnerSystem

/// The day record on disk, `.leitner/days` (R4–R7): one `YYYY-MM-DD completed|skipped` line per
/// entry, appended and synced; withdrawn (R15) by an atomic rewrite.
final class DayRecordFile {
    static let name = "days"
    private let directory: FileDescriptor
    private let path: String

    init(stateDirectory: FileDescriptor, statePath: String) throws(BoxError) {
        directory = stateDirectory
        path = statePath + "/" + DayRecordFile.name
    }

    /// Reads the record; a last line a crash cut short is dropped and the file rewritten.
    func load() throws(BoxError) -> DayRecord {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(DayRecordFile.name, in: directory)
        } catch where error == .noEntry {
            return DayRecord()
        } catch {
            throw .storeFailure(path: path, reason: "cannot read: \(error)")
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

    /// Appends an entry durably (R17).
    func append(_ entry: DayRecord.Entry, to record: inout DayRecord) throws(BoxError) {
        do {
            try record.append(entry)
        } catch {
            throw .storeFailure(path: path, reason: "\(error)")
        }
        do {
            let fd = try FileDescriptor.open(DayRecordFile.name, relativeTo: directory,
                                             flags: O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW)
            defer { fd.close() }
            try fd.writeAll(Array((DayRecord.line(for: entry) + "\n").utf8))
            try fd.syncData()
        } catch {
            _ = record.removeLast()
            throw .storeFailure(path: path, reason: "cannot append: \(error)")
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
            try FileSystem.writeAtomically(Array(record.text.utf8), to: DayRecordFile.name, in: directory)
        } catch {
            throw .storeFailure(path: path, reason: "cannot write: \(error)")
        }
    }
}
