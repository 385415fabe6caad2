import Glibc
import LeitnerSystem

/// The bare system-call costs the box's figures are set beside, measured in the same run.
enum Floors {
    /// Walks the level directories reading names only (the open path's floor).
    static func readdirWalk(_ path: String, statEach: Bool) -> Double {
        Timing.seconds {
            for level in ["1", "2", "3", "4", "5", "6", "7", "finished"] {
                guard let dir = opendir(path + "/" + level) else { continue }
                let fd = dirfd(dir)
                var count = 0
                while let entry = readdir(dir) {
                    count += 1
                    if statEach {
                        var st = stat()
                        _ = withUnsafePointer(to: entry.pointee.d_name) {
                            $0.withMemoryRebound(to: CChar.self, capacity: 256) { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) }
                        }
                    }
                }
                closedir(dir)
                _ = count
            }
        }
    }

    /// How the floor's line reaches the disk.
    enum SyncKind: String {
        /// Appended to a log, then `fdatasync`: the log grows, so the file system commits metadata.
        case append = "append + fdatasync"
        /// Written over zeros already on disk, then `fdatasync`: data only (the box's journal).
        case overwrite = "overwrite in place + fdatasync"
    }

    /// Writes a grade-sized line `samples` times, each made durable the `kind` way, and with
    /// `renaming` also renames a card directory between two directories, as a grade does;
    /// per-call durations in seconds.
    static func sync(_ kind: SyncKind, renaming: Bool, in directory: String, samples: Int) throws -> [Double] {
        let name = directory + "/floor-\(kind == .append ? "log" : "journal")-\(renaming)"
        unlink(name)
        let fd = try FileDescriptor.open(name, flags: O_RDWR | O_CREAT | (kind == .append ? O_APPEND : 0))
        defer { fd.close() }
        let line = Array("2026-11-21T20:30:00+00:00\tgrade\tcard-1-benchmark\t1\t2\tcorrect\t1200\n".utf8)
        if kind == .overwrite {
            try fd.writeAll([UInt8](repeating: 0, count: line.count * samples))
            try fd.sync()
        }
        mkdir(directory + "/a", 0o755)
        mkdir(directory + "/b", 0o755)
        mkdir(directory + "/a/card", 0o755)
        var inA = true
        return try (0..<samples).map { sample in
            try Timing.secondsThrowing {
                if kind == .append { try fd.writeAll(line) } else { try fd.writeAll(line, at: sample * line.count) }
                try fd.syncData()
                if renaming {
                    rename(directory + (inA ? "/a/card" : "/b/card"), directory + (inA ? "/b/card" : "/a/card"))
                    inA.toggle()
                }
            }
        }
    }
}
