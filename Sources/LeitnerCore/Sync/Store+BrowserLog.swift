import LeitnerSystem

/// The review log of a browser that graded offline (R35): `.leitner/devices/DEVICE/log`, laid
/// out as a machine's (docs/sync.md). A browser writes no file; this daemon, the only one its
/// leitner-web reaches, writes its log for it, so the log still has one writer. Every other
/// reader — `Log`, the statistics, settling, another machine's daemon after a sync — takes it
/// for one more device's.
///
/// What makes a device a browser is a file of its directory, `browser`, written when the browser
/// first keeps a test: a browser device is no machine that syncs the store (its log tells
/// nothing of a sync tool at work, docs/sync.md), and only a browser device sends kept grades.
extension Store {
    /// The file that makes `.leitner/devices/DEVICE/` a browser's: it holds when the browser
    /// first kept a test (RFC 3339, one line).
    static let browserFileName = "browser"

    /// Makes `device` a browser device of the box, once: its `browser` file, holding `now`,
    /// written atomically and durably (with the directory entries of a directory just made).
    /// - Throws: `keptGradeRefused` when the device's directory holds a log or a day record
    ///   without that file: another machine's, whose files this daemon never writes; `storeFailure`.
    func registerBrowser(_ device: String, now: Int64) throws(BoxError) {
        let directoryPath = sharedPath + "/" + Store.devicesDirectoryName + "/" + device
        let made = !FileSystem.exists(device, in: devicesFD)
        let directory = try Store.subdirectory(device, of: devicesFD, path: directoryPath)
        defer { directory.close() }
        guard !FileSystem.exists(Store.browserFileName, in: directory) else { return }
        if FileSystem.exists(ReviewLog.fileName, in: directory) || FileSystem.exists(DayRecordFile.name, in: directory) {
            throw .keptGradeRefused(device: device, reason: "'\(directoryPath)' holds the files of another machine that syncs this "
                                    + "store, which this machine never writes: a browser is a device of its own")
        }
        try Store.failing(.write, directoryPath + "/" + Store.browserFileName) { () throws(Errno) in
            try FileSystem.writeAtomically(Array((DayClock.rfc3339Milliseconds(now) + "\n").utf8), to: Store.browserFileName,
                                           in: directory)
            if made { try devicesFD.sync() }
        }
    }

    /// Whether `device` is a browser device of the box (it kept a test).
    func isBrowser(_ device: String) -> Bool {
        guard let directory = try? FileDescriptor.openDirectory(device, relativeTo: devicesFD) else { return false }
        defer { directory.close() }
        return FileSystem.exists(Store.browserFileName, in: directory)
    }

    /// When browser `device` first kept a test (ms since the epoch); nil when it is no browser,
    /// or its file says no time (written by hand).
    func browserSince(_ device: String) -> Int64? {
        guard let directory = try? FileDescriptor.openDirectory(device, relativeTo: devicesFD) else { return nil }
        defer { directory.close() }
        guard let bytes = try? FileSystem.readFile(Store.browserFileName, in: directory, limit: 256) else { return nil }
        return bytes.split(separator: UInt8(ascii: "\n")).first.flatMap { DayClock.parseRFC3339($0) }
    }

    /// Appends `entry` to the log of browser `device` and makes it durable (the line, and the
    /// directory entries of a log just made) before returning.
    func appendToBrowserLog(_ device: String, _ entry: LogEntry) throws(BoxError) {
        let directoryPath = sharedPath + "/" + Store.devicesDirectoryName + "/" + device
        let path = directoryPath + "/" + ReviewLog.fileName
        let made = !FileSystem.exists(device, in: devicesFD)
        let directory = try Store.subdirectory(device, of: devicesFD, path: directoryPath)
        defer { directory.close() }
        try Store.failing(.write, path) { () throws(Errno) in
            let existed = FileSystem.exists(ReviewLog.fileName, in: directory)
            let file = try FileDescriptor.open(ReviewLog.fileName, relativeTo: directory, .writeOnly,
                                               options: [.create, .append, .noFollow], mode: 0o644)
            defer { file.close() }
            try file.writeAll(Array(LogLine.format(entry).utf8))
            try file.syncData()
            if !existed { try directory.sync() }
            if made { try devicesFD.sync() }
        }
    }

    /// The size of browser `device`'s log; 0 when it has none.
    func browserLogSize(_ device: String) -> Int {
        guard let directory = try? FileDescriptor.openDirectory(device, relativeTo: devicesFD) else { return 0 }
        defer { directory.close() }
        return (try? FileSystem.status(ReviewLog.fileName, in: directory)).map { Int($0.st_size) } ?? 0
    }
}
