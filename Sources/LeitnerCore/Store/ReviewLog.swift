import Glibc

/// The review log `.leitner/log` (R16). It is also the store's write-ahead journal: a change is
/// appended and synced before the rename that carries it out, so one `fdatasync` makes a grade
/// durable (R17) and replaying the tail repairs a rename a crash cut off (R18).
final class ReviewLog {
    static let fileName = "log"

    private let fd: FileDescriptor
    private let path: String
    /// Bytes in the file: the offset the next line starts at.
    private(set) var size: Int

    init(stateDirectory: FileDescriptor, statePath: String) throws(BoxError) {
        path = statePath + "/" + ReviewLog.fileName
        do {
            fd = try FileDescriptor.open(ReviewLog.fileName, relativeTo: stateDirectory,
                                         flags: O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW)
            size = try fd.size()
        } catch {
            throw .storeFailure(path: path, reason: "cannot open: \(error)")
        }
    }

    deinit { fd.close() }

    /// Appends entries in one write; with `durable`, syncs before returning (R17).
    func append(_ entries: [LogEntry], durable: Bool) throws(BoxError) {
        guard !entries.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in entries { bytes.append(contentsOf: LogLine.format(entry).utf8) }
        do {
            try fd.writeAll(bytes)
            size += bytes.count
            if durable { try fd.syncData() }
        } catch {
            // A partial line would be misread later: cut the file back to its last whole line.
            try? fd.truncate(to: size)
            throw .storeFailure(path: path, reason: "cannot append: \(error)")
        }
    }

    /// Makes everything appended so far durable.
    func sync() throws(BoxError) {
        do { try fd.syncData() } catch { throw .storeFailure(path: path, reason: "cannot sync: \(error)") }
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
            let line = Substring(decoding: bytes[lineStart..<index], as: UTF8.self)
            if let entry = LogLine.parse(line) { result.append((entry, offset + index + 1)) }
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
