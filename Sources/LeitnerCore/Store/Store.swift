import Glibc

/// The store on disk (SPEC §3): one directory per level, one directory per card, and `.leitner/`
/// for the box's own state. Keeps an index of every card's level, built from names alone (no
/// `stat` per card), and kept current by an inotify watch on the level directories (R13).
///
/// Every change the daemon makes is journaled: its log line is appended and synced first, then
/// the rename carries it out (R17); `repair()` finishes a rename a crash cut off (R18).
final class Store {
    /// The store's canonical absolute path.
    let root: String
    let rootFD: FileDescriptor
    /// `.leitner/`.
    let stateFD: FileDescriptor
    /// `.leitner/tmp/`: cards being written, loose pairs being adopted.
    let stagingFD: FileDescriptor
    /// `.leitner/trash/`: cards being deleted.
    let trashFD: FileDescriptor
    let log: ReviewLog
    private let lock: StoreLock
    let inotify: Inotify
    /// Level directory descriptors, indexed by `Level.rawValue - 1`.
    var levelFDs: [FileDescriptor]
    /// Watch descriptor → level.
    var watches: [Int32: Level] = [:]

    /// Every card's level.
    var levelOf: [String: Level] = [:]
    /// Cards per level (damaged cards included), indexed by `Level.rawValue - 1`.
    var rawCounts = [Int](repeating: 0, count: Level.allCases.count)
    /// Cards found damaged (R21) → the reason; kept out of tests and counts.
    var damaged: [String: String] = [:]
    /// Loose files in each level directory (R14 candidates), by level.
    var looseFiles: [Level: Set<String>] = [:]
    /// Entries that are neither cards nor loose files, and duplicate card directories, by path.
    var strays: [String: StoreProblem] = [:]
    /// True when no level directory changed since the last checkpoint was written: then nothing
    /// was done by hand while no daemon ran, and the open test needs no reconciling.
    var untouchedSinceCheckpoint = false
    /// Daemon-made journal entries since the last checkpoint: a checkpoint every so many.
    var entriesSinceCheckpoint = 0
    /// A journaled rename put off by `moveCard(deferringRename:)`, carried out by
    /// `finishDeferredMove()`. The index already shows the card in its new level.
    private(set) var deferredMove: (id: String, from: Level, to: Level)?
    /// Cards whose deferred rename failed: `refresh` looks where they are.
    var namesToResolve: [String] = []

    static let stateDirectoryName = ".leitner"
    static let checkpointInterval = 1000

    /// Opens the store at `path`, creating it and its level directories when missing, takes the
    /// lock (R19), indexes the cards and repairs leftovers (R18).
    init(path: String, now: Int64) throws {
        try Store.makeDirectories(path)
        let rootPath = try Store.failing(path, "cannot resolve") { () throws(Errno) in try FileSystem.realPath(path) }
        let rootDirectory = try Store.failing(rootPath, "cannot open") { () throws(Errno) in
            try FileDescriptor.openDirectory(rootPath)
        }
        let statePath = rootPath + "/" + Store.stateDirectoryName
        let stateDirectory = try Store.subdirectory(Store.stateDirectoryName, of: rootDirectory, path: statePath)
        root = rootPath
        rootFD = rootDirectory
        stateFD = stateDirectory
        lock = try StoreLock(stateDirectory: stateDirectory, storePath: rootPath)
        stagingFD = try Store.subdirectory("tmp", of: stateDirectory, path: statePath + "/tmp")
        trashFD = try Store.subdirectory("trash", of: stateDirectory, path: statePath + "/trash")
        log = try ReviewLog(stateDirectory: stateFD, statePath: statePath)
        inotify = try Store.failing(root, "cannot watch") { () throws(Errno) in try Inotify() }
        levelFDs = []
        for level in Level.allCases {
            levelFDs.append(try openLevel(level))
        }
        // Watch before scanning, so that nothing done during the scan is missed.
        untouchedSinceCheckpoint = readCheckpointStamps() == levelStamps()
        try scanAll()
        try repair(now: now)
    }

    /// Syncs what is pending, writes a checkpoint and releases the lock.
    func close() {
        try? checkpoint()
        lock.release()
        for fd in levelFDs { fd.close() }
        for fd in [trashFD, stagingFD, stateFD, rootFD] { fd.close() }
    }

    /// The absolute path of a level directory.
    func path(of level: Level) -> String { root + "/" + level.name }

    /// The absolute path of a card directory.
    func path(of id: String, in level: Level) -> String { root + "/" + level.name + "/" + id }

    func fd(_ level: Level) -> FileDescriptor { levelFDs[level.rawValue - 1] }

    /// Cards per level, damaged cards left out (R21).
    func counts() -> [Level: Int] {
        var result: [Level: Int] = [:]
        for level in Level.allCases { result[level] = rawCounts[level.rawValue - 1] }
        for (id, _) in damaged { if let level = levelOf[id] { result[level, default: 0] -= 1 } }
        return result
    }

    // MARK: Index bookkeeping

    func setLevel(_ id: String, _ level: Level?) {
        if let old = levelOf[id] { rawCounts[old.rawValue - 1] -= 1 }
        levelOf[id] = level
        if let level { rawCounts[level.rawValue - 1] += 1 }
    }

    // MARK: Journaled changes (R17, R18)

    /// Moves a card directory between levels: `journal` is appended and made durable, then the
    /// rename — at once, or with `deferringRename` at the next `finishDeferredMove()`.
    func moveCard(_ id: String, from: Level, to: Level, journal: [LogEntry], deferringRename: Bool = false) throws(BoxError) {
        try finishDeferredMove()
        try log.append(journal, durable: true)
        if deferringRename {
            deferredMove = (id, from, to)
        } else {
            try rename(id, from: from, to: to)
        }
        setLevel(id, to)
        try countTowardsCheckpoint()
    }

    /// Carries out the rename `moveCard(deferringRename:)` put off. When it fails with the card
    /// still where it was (a full or failing disk), the move stays pending, to be tried again by
    /// the next call, and a checkpoint cannot pass it: the grade was acknowledged (R17), and a
    /// restart carries it out from the journal. When the card is gone from there, a hand moved
    /// or removed it in that instant and wins (R13): the next `refresh` looks where it is.
    func finishDeferredMove() throws(BoxError) {
        guard let move = deferredMove else { return }
        do {
            try rename(move.id, from: move.from, to: move.to)
            deferredMove = nil
        } catch {
            if !FileSystem.exists(move.id, in: fd(move.from)) {
                deferredMove = nil
                namesToResolve.append(move.id)
            }
            throw error
        }
    }

    /// The level whose directory holds the card now: its level in the index, or, while its
    /// rename is pending, the level it is leaving.
    func directoryLevel(of id: String) -> Level? {
        if let move = deferredMove, move.id == id { return move.from }
        return levelOf[id]
    }

    private func rename(_ id: String, from: Level, to: Level) throws(BoxError) {
        do {
            try FileSystem.rename(id, in: fd(from), to: id, in: fd(to))
        } catch {
            throw .storeFailure(path: path(of: id, in: from),
                                reason: "cannot rename to '\(path(of: id, in: to))': \(error)")
        }
    }

    /// Writes a new card's assets under `.leitner/tmp/add-ID`, synced; `commitStagedCard` puts it in place.
    func stageCard(_ id: String, front: (name: String, bytes: [UInt8]), back: (name: String, bytes: [UInt8])) throws(BoxError) {
        let staged = "add-" + id
        let stagedPath = root + "/.leitner/tmp/" + staged
        do {
            if FileSystem.exists(staged, in: stagingFD) { try FileSystem.removeTree(staged, in: stagingFD) }
            try FileSystem.makeDirectory(staged, in: stagingFD)
            let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
            defer { dir.close() }
            for (name, bytes) in [front, back] {
                let file = try FileDescriptor.open(name, relativeTo: dir, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
                defer { file.close() }
                try file.writeAll(bytes)
                try file.sync()
            }
            try dir.sync()
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw .storeFailure(path: stagedPath, reason: "cannot write: \(error)")
        }
    }

    /// Puts a staged card in place: `journal` appended and synced, then the rename (R17).
    func commitStagedCard(_ id: String, level: Level, journal: [LogEntry]) throws(BoxError) {
        let staged = "add-" + id
        do {
            try finishDeferredMove()
            try log.append(journal, durable: true)
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw error
        }
        do {
            try FileSystem.rename(staged, in: stagingFD, to: id, in: fd(level))
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            if error == .exists { throw .cardExists(id: id) }
            throw .storeFailure(path: path(of: id, in: level), reason: "cannot create: \(error)")
        }
        setLevel(id, level)
        try countTowardsCheckpoint()
    }

    /// Deletes a card: `journal` appended and synced, the directory renamed into the trash, then removed.
    func removeCard(_ id: String, from level: Level, journal: [LogEntry]) throws(BoxError) {
        try finishDeferredMove()
        try log.append(journal, durable: true)
        let trashed = "\(id).\(getpid()).\(log.size)"
        do {
            try FileSystem.rename(id, in: fd(level), to: trashed, in: trashFD)
        } catch {
            throw .storeFailure(path: path(of: id, in: level), reason: "cannot delete: \(error)")
        }
        setLevel(id, nil)
        damaged[id] = nil
        try? FileSystem.removeTree(trashed, in: trashFD)
        try countTowardsCheckpoint()
    }

    private func countTowardsCheckpoint() throws(BoxError) {
        entriesSinceCheckpoint += 1
        if entriesSinceCheckpoint >= Store.checkpointInterval { try checkpoint() }
    }

    /// Makes every rename so far durable (fsync of the level directories) and records the journal
    /// offset up to which nothing needs replaying.
    func checkpoint() throws(BoxError) {
        try finishDeferredMove()
        for (index, fd) in levelFDs.enumerated() {
            do { try fd.sync() } catch {
                throw .storeFailure(path: path(of: Level.allCases[index]), reason: "cannot sync: \(error)")
            }
        }
        try log.sync()
        do {
            try FileSystem.writeAtomically(Array("\(log.size)\n\(levelStamps())\n".utf8), to: "checkpoint", in: stateFD)
        } catch {
            throw .storeFailure(path: root + "/.leitner/checkpoint", reason: "cannot write: \(error)")
        }
        entriesSinceCheckpoint = 0
    }

    // MARK: Helpers

    /// The modification and change times and link counts of the level directories: any card
    /// moved in or out, created or removed changes them.
    func levelStamps() -> String {
        levelFDs.map { fd in
            var st = stat()
            guard fstat(fd.rawValue, &st) == 0 else { return "?" }
            return "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec),\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec),\(st.st_nlink)"
        }.joined(separator: " ")
    }

    private func readCheckpointStamps() -> String? {
        guard let bytes = try? FileSystem.readFile("checkpoint", in: stateFD, limit: 4096) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        return lines.count >= 2 ? String(lines[1]) : nil
    }

    private func openLevel(_ level: Level) throws(BoxError) -> FileDescriptor {
        let levelPath = path(of: level)
        do {
            try FileSystem.makeDirectory(level.name, in: rootFD, existingOK: true)
            let fd = try FileDescriptor.openDirectory(level.name, relativeTo: rootFD)
            watches[try inotify.watch(directory: levelPath)] = level
            return fd
        } catch where error == .tooManyLinks || error == .notDirectory {
            throw .storeFailure(path: levelPath, reason: "not a directory (a level must be a real directory, not a link)")
        } catch {
            throw .storeFailure(path: levelPath, reason: "cannot open: \(error)")
        }
    }

    /// Reopens a level directory that was removed or replaced by hand.
    func reopenLevel(_ level: Level) throws(BoxError) {
        for (watch, watched) in watches where watched == level {
            inotify.unwatch(watch)
            watches[watch] = nil
        }
        fd(level).close()
        levelFDs[level.rawValue - 1] = try openLevel(level)
    }

    static func failing<T>(_ path: String, _ what: String, _ body: () throws(Errno) -> T) throws(BoxError) -> T {
        do { return try body() } catch { throw .storeFailure(path: path, reason: "\(what): \(error)") }
    }

    /// Creates (when missing) and opens a directory of the store's own.
    static func subdirectory(_ name: String, of parent: FileDescriptor, path: String) throws(BoxError) -> FileDescriptor {
        try failing(path, "cannot open") { () throws(Errno) in
            try FileSystem.makeDirectory(name, in: parent, mode: 0o700, existingOK: true)
            return try FileDescriptor.openDirectory(name, relativeTo: parent)
        }
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) throws(BoxError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            do { try FileSystem.makeDirectory(prefix, in: nil, mode: 0o700, existingOK: true) } catch {
                throw .storeFailure(path: prefix, reason: "cannot create directory: \(error)")
            }
        }
    }
}
