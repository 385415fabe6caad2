import Glibc
import LeitnerCore
import LeitnerSystem

/// Builds a store of `count` text cards directly in the store format (docs/store-format.md), spread over the
/// levels roughly as a box in use is: half in level 1, a quarter in level 2, and so on; or all
/// in `level` when one is named.
enum StoreBuilder {
    static func build(at path: String, count: Int, level fixed: String? = nil) throws {
        for name in ["", "/1", "/2", "/3", "/4", "/5", "/6", "/7", "/finished"] { mkdir(path + name, 0o755) }
        let levels = ["1", "2", "3", "4", "5", "6", "7", "finished"]
        let root = try FileDescriptor.openDirectory(path)
        defer { root.close() }
        var levelFDs: [FileDescriptor] = []
        for level in levels { levelFDs.append(try FileDescriptor.openDirectory(level, relativeTo: root)) }
        defer { levelFDs.forEach { $0.close() } }
        for index in 0..<count {
            // Level k holds about 1/2^k of the cards; ids longer than 15 bytes on purpose, as
            // real ids often are (Swift stores up to 15 bytes inline).
            let level = fixed.flatMap(levels.firstIndex(of:)) ?? min(levels.count - 1, (index + 1).trailingZeroBitCount)
            let id = "card-\(index)-benchmark"
            try FileSystem.makeDirectory(id, in: levelFDs[level])
            let dir = try FileDescriptor.openDirectory(id, relativeTo: levelFDs[level])
            for (name, text) in [("front.txt", "front \(index)"), ("back.txt", "back \(index)")] {
                let file = try FileDescriptor.open(name, relativeTo: dir, flags: O_WRONLY | O_CREAT | O_TRUNC)
                try file.writeAll(Array(text.utf8))
                file.close()
            }
            dir.close()
        }
        sync()
    }

    /// The level `build` puts card `index` in ("card-INDEX-benchmark").
    static func level(ofCard index: Int) -> Level {
        Level.levels[min(Level.levels.count - 1, (index + 1).trailingZeroBitCount)]
    }

    /// Adds `count` text cards to `new/` of a built store (R23: waiting to be admitted), with ids
    /// of their own, none logged: they are admitted as cards put there by hand, by id.
    static func addNew(at path: String, count: Int) throws {
        mkdir(path + "/new", 0o755)
        let new = try FileDescriptor.openDirectory(path + "/new")
        defer { new.close() }
        for index in 0..<count {
            let id = "new-\(index)-benchmark"
            try FileSystem.makeDirectory(id, in: new)
            let dir = try FileDescriptor.openDirectory(id, relativeTo: new)
            for (name, text) in [("front.txt", "new front \(index)"), ("back.txt", "new back \(index)")] {
                let file = try FileDescriptor.open(name, relativeTo: dir, flags: O_WRONLY | O_CREAT | O_TRUNC)
                try file.writeAll(Array(text.utf8))
                file.close()
            }
            dir.close()
        }
        sync()
    }
}
