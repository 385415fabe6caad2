import LeitnerSystem

/// Reads the review log (R16) a piece at a time, for `Log` and for whatever else goes through a
/// log that may hold a million lines: never more than `chunkSize` bytes of it are held at once.
///
/// A reader works on its own descriptor and on the log as it was when it was made: lines
/// appended later are not read (their bytes lie past `end`). So it needs no box once made, and
/// the daemon reads the log for a streamed `Log` without holding the box (docs/daemon.md,
/// "Streamed replies"). Lines that are not log lines are skipped, as everywhere else; a last
/// line without its newline is not read.
public final class ReviewLogReader {
    /// How much of the file is read at once.
    static let chunkSize = 64 << 10

    private let file: FileDescriptor
    /// The log's path, for errors.
    let path: String
    /// Where the log ended when the reader was made: nothing from there on is read.
    let end: Int
    /// Entries before this time are left out; nil keeps all.
    private let since: Int64?
    /// Only the last `limit` entries (after `since`) are read; nil reads all.
    private let limit: Int?
    /// The offset of the next unread byte of the file; nil until the start has been found.
    private var fileOffset: Int?
    /// Bytes read and not yet taken apart into lines, from `pendingStart` on.
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// Opens the log for reading.
    /// - Parameters:
    ///   - stateDirectory: `.leitner/`, where the log is.
    ///   - path: the log's path, for errors.
    ///   - end: the log's size now: the reader stops there.
    ///   - since: the earliest time kept (ms since the epoch), nil for all.
    ///   - limit: how many of the last entries are kept, nil for all.
    ///   - from: where to start reading, a line's start (0: the whole log). Ignored with `limit`.
    /// - Throws: `storeFailure` naming the log when it cannot be opened.
    init(stateDirectory: FileDescriptor, path: String, end: Int, since: Int64?, limit: Int?,
         from offset: Int = 0) throws(BoxError) {
        do {
            file = try FileDescriptor.open(ReviewLog.fileName, relativeTo: stateDirectory, .readOnly, options: [.noFollow])
        } catch {
            throw .failing(.open, path, error)
        }
        self.path = path
        self.end = end
        self.since = since
        self.limit = limit.map { max(0, $0) }
        fileOffset = limit == nil ? min(offset, end) : nil
    }

    deinit { file.close() }

    /// The next entries, at most `count`; empty once the log is read to its end.
    /// - Throws: `storeFailure` naming the log when it cannot be read.
    public func next(upTo count: Int) throws(BoxError) -> [LogEntry] {
        var entries: [LogEntry] = []
        try next(upTo: count) { entry, _ in entries.append(entry) }
        return entries
    }

    /// Calls `body` with the next entries, at most `count`, each with the offset just after its
    /// line; returns how many there were (0 once the log is read to its end).
    @discardableResult
    func next(upTo count: Int, _ body: (LogEntry, Int) -> Void) throws(BoxError) -> Int {
        try nextLines(upTo: count) { line, end in body(line.entry, end) }
    }

    /// `next(upTo:_:)` with each line's fields as read from its bytes (`LogLine.Fields`, its ids
    /// valid during the call): for a reading that needs no string of most lines.
    @discardableResult
    func nextLines(upTo count: Int, _ body: (LogLine.Fields, Int) -> Void) throws(BoxError) -> Int {
        var offset = try currentOffset()
        var taken = 0
        while taken < count {
            guard let newline = pending[pendingStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                guard try readMore(from: offset) else { break }
                offset = try currentOffset()
                continue
            }
            let line = pending[pendingStart..<newline]
            pendingStart = newline + 1
            guard let fields = LogLine.Fields(line) else { continue }
            if let since, fields.time < since { continue }
            body(fields, offset - (pending.count - pendingStart))
            taken += 1
        }
        return taken
    }

    /// How far the file has been read: for the last entries (`limit`), found on the first call.
    private func currentOffset() throws(BoxError) -> Int {
        if let fileOffset { return fileOffset }
        let start = try startOfLast(limit ?? 0)
        fileOffset = start
        return start
    }

    /// Reads the next piece of the file after what is pending; false at `end` (or at the file's
    /// end, should it have been cut short by hand).
    private func readMore(from offset: Int) throws(BoxError) -> Bool {
        guard offset < end else { return false }
        let chunk: [UInt8]
        do { chunk = try file.read(at: offset, upTo: min(ReviewLogReader.chunkSize, end - offset)) } catch {
            throw .failing(.read, path, error)
        }
        if chunk.isEmpty { return false }
        pending.removeSubrange(..<pendingStart)
        pending += chunk
        pendingStart = 0
        fileOffset = offset + chunk.count
        return true
    }

    /// The offset of the line where the last `count` entries (after `since`) begin, found by
    /// reading the log backwards from `end`: `Log(limit: 20)` on a log of a million lines reads
    /// its last few pieces only.
    private func startOfLast(_ count: Int) throws(BoxError) -> Int {
        if count == 0 { return end }
        var found = 0
        // `region` holds the bytes [regionStart, lineEnd): whole lines, except that its first
        // line may begin before regionStart.
        var regionStart = end
        var region: [UInt8] = []
        var trimmed = false
        while regionStart > 0 {
            let size = min(ReviewLogReader.chunkSize, regionStart)
            let chunk: [UInt8]
            do { chunk = try file.read(at: regionStart - size, upTo: size) } catch {
                throw .failing(.read, path, error)
            }
            guard chunk.count == size else { return 0 } // the file was cut short by hand: read it all
            regionStart -= size
            region = chunk + region
            if !trimmed {
                // A last line without its newline is not read.
                guard let last = region.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                region.removeSubrange((last + 1)...)
                trimmed = true
            }
            // Lines from the last to the second; the first may go on in the piece before.
            var lineEnd = region.count - 1 // the newline ending the line being looked at
            while lineEnd > 0, let start = region[..<lineEnd].lastIndex(of: UInt8(ascii: "\n")) {
                if counts(region[(start + 1)..<lineEnd]) {
                    found += 1
                    if found == count { return regionStart + start + 1 }
                }
                lineEnd = start
            }
            region.removeSubrange((lineEnd + 1)...)
        }
        // Fewer than `count` entries: all of them, from the log's first line.
        return 0
    }

    /// True when a line is an entry this reader keeps.
    private func counts(_ line: ArraySlice<UInt8>) -> Bool {
        guard let fields = LogLine.Fields(line) else { return false }
        return since.map { fields.time >= $0 } ?? true
    }
}
