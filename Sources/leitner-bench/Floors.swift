import Glibc
import LeitnerCore

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

    /// Appends a line and `fdatasync`s it, `samples` times; per-call durations in seconds.
    static func appendAndSync(in directory: String, samples: Int) throws -> [Double] {
        let fd = try FileDescriptor.open(directory + "/floor-log", flags: O_WRONLY | O_CREAT | O_APPEND)
        defer { fd.close() }
        let line = Array("2026-11-21T20:30:00+00:00\tgrade\tcard-1-benchmark\t1\t2\tcorrect\t1200\n".utf8)
        return try (0..<samples).map { _ in
            try Timing.secondsThrowing {
                try fd.writeAll(line)
                try fd.syncData()
            }
        }
    }

    /// One `fdatasync` of an append plus one rename of a directory between two directories: the
    /// least a durable, journaled grade can cost.
    static func syncAndRename(in directory: String, samples: Int) throws -> [Double] {
        mkdir(directory + "/a", 0o755)
        mkdir(directory + "/b", 0o755)
        mkdir(directory + "/a/card", 0o755)
        let fd = try FileDescriptor.open(directory + "/floor-log", flags: O_WRONLY | O_CREAT | O_APPEND)
        defer { fd.close() }
        let line = Array("2026-11-21T20:30:00+00:00\tgrade\tcard-1-benchmark\t1\t2\tcorrect\t1200\n".utf8)
        var inA = true
        return try (0..<samples).map { _ in
            try Timing.secondsThrowing {
                try fd.writeAll(line)
                try fd.syncData()
                rename(directory + (inA ? "/a/card" : "/b/card"), directory + (inA ? "/b/card" : "/a/card"))
                inA.toggle()
            }
        }
    }
}
