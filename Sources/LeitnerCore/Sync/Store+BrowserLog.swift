import LeitnerSystem

/// The review log of a browser that graded offline (R35): `.leitner/devices/DEVICE/log`, laid
/// out as a machine's (docs/sync.md). A browser writes no file; this daemon, the only one its
/// leitner-web reaches, writes its log for it, so the log still has one writer. Every other
/// reader — `Log`, the statistics, settling, another machine's daemon after a sync — takes it
/// for one more device's.
extension Store {
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
