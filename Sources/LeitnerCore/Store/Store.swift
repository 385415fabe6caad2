import LeitnerSystem

/// The store on disk (docs/store-format.md): one directory per level, one directory per card, and `.leitner/`
/// for the box's own state: this device's review log and day record in `.leitner/devices/DEVICE/`
/// (other devices' are read, never written: docs/sync.md), its private state (journal, checkpoint,
/// open test, lock, staging and trash) in `.leitner/local.DEVICE/`. Keeps an index of every card's level, built from names alone (no
/// `stat` per card), and kept current by an inotify watch on the level directories (R13).
///
/// Every change the daemon makes is journaled: its log lines and the renames that carry it out
/// are written to the journal and synced, then the renames are done, before the reply (R17);
/// `repair()` finishes a rename a crash cut off, unless a hand has moved the card since (R13, R18).
final class Store {
    /// The store's own directories, held open from open to close.
    private let directories: StoreDirectories
    private let lock: StoreLock
    /// This device's review log (R16) and journal (R17).
    private let reviewLog: ReviewLog
    /// The watch on the level directories, the root and the card directories the views watch.
    private let inotify: Inotify
    /// The level directories: descriptors, problems, watches.
    private var levels = LevelDirectories()
    /// What changed, for the views kept from the store (`ChangeFeed`): the search index, the tag
    /// table, the reverse index.
    private var feed = ChangeFeed()
    /// The other devices of a synced store, by name, as last looked at (`refreshPeerDays`).
    private var peerDevices: [String: PeerDevice] = [:]
    /// Every card's level.
    private var index = CardIndex()
    /// Counts the times a card came into the index or left it, a scan of every level as one: a
    /// figure over which cards are in the box (the leeches `Status` counts) holds while it stays.
    private(set) var cardSetVersion = 0
    /// Cards per level (damaged cards included), indexed by `Level.rawValue - 1`.
    private var levelCounts = [Int](repeating: 0, count: Level.allCases.count)
    /// Cards found damaged (R21) → the reason; kept out of tests and counts.
    private var damage = [String: String]()
    /// What the scans and reads found beside the cards.
    private var found = StoreFindings()
    /// What the open found.
    private var opening = OpeningReport()
    /// Listings kept until their directory changes.
    private var listings = ListingsSeen()
    /// Notes kept for their cards' sides while nothing of them changes.
    private var noteReads = NoteReads()

    static let stateDirectoryName = ".leitner"
    static let devicesDirectoryName = "devices"

    /// The name of a device's private state directory in `.leitner/`.
    static func privateDirectoryName(_ device: String) -> String { "local." + device }

    /// `.leitner/`, for messages.
    var sharedPath: String { root + "/" + Store.stateDirectoryName }
    /// This device's private state directory, for messages.
    var statePath: String { sharedPath + "/" + Store.privateDirectoryName(device) }
    /// This device's directory of shared files, for messages.
    var devicePath: String { sharedPath + "/" + Store.devicesDirectoryName + "/" + device }

    /// Opens the store at `path`, creating it and its level directories when missing, takes the
    /// lock (R19), indexes the cards and repairs leftovers (R18).
    /// - Parameter groupCommit: journal records are synced by whoever sends a reply
    ///   (`ReviewLog.commitPoint`), not as they are written.
    /// - Parameter watchLimit: the most inotify watches the store's instance holds for the views'
    ///   card directories and its own (`Inotify.limit`); nil for three quarters of the kernel's.
    /// - Parameter beforeScan: started once the store's descriptors and watcher are open, before
    ///   the levels are scanned: work of the open that runs on a thread of its own alongside the
    ///   scan (the notes' first look, `NoteLook`). What it returns is called when the open fails
    ///   after it, before the watcher is closed.
    init(path: String, device: String, now: Int64, groupCommit: Bool = false, watchLimit: Int? = nil,
         beforeScan: (Store) -> (() -> Void)? = { _ in nil }) throws {
        try Store.makeDirectories(path)
        let rootPath = try Store.failing(.resolve, path) { () throws(Errno) in try FileSystem.realPath(path) }
        let rootDirectory = try Store.failing(.open, rootPath) { () throws(Errno) in
            try FileDescriptor.openDirectory(rootPath)
        }
        let sharedPath = rootPath + "/" + Store.stateDirectoryName
        let statePath = sharedPath + "/" + Store.privateDirectoryName(device)
        let devicePath = sharedPath + "/" + Store.devicesDirectoryName + "/" + device
        // Whatever fails from here on must not leave the store locked by a box that never opened
        // (a reload that fails would otherwise lock the daemon out of its own store).
        var opened: [FileDescriptor] = [rootDirectory]
        var lock: StoreLock?
        do {
            let sharedFD = try Store.subdirectory(Store.stateDirectoryName, of: rootDirectory, path: sharedPath)
            opened.append(sharedFD)
            // R19 whatever the device: the store's directory itself is locked too, so that two
            // daemons on one store under two device ids (two configurations) cannot both run.
            // Released with the descriptor, at close or at the process's death.
            let locked = try Store.failing(.lock, rootPath) { () throws(Errno) in try rootDirectory.tryLockExclusive() }
            if !locked { throw StoreLockedError(storePath: rootPath, pid: StoreLock.holder(among: sharedFD)) as any Error }
            try StoreMigration.migrate(shared: sharedFD, sharedPath: sharedPath, device: device, storePath: rootPath, now: now)
            let devicesFD = try Store.subdirectory(Store.devicesDirectoryName, of: sharedFD, path: sharedPath + "/" + Store.devicesDirectoryName)
            opened.append(devicesFD)
            let deviceFD = try Store.subdirectory(device, of: devicesFD, path: devicePath)
            opened.append(deviceFD)
            let stateFD = try Store.subdirectory(Store.privateDirectoryName(device), of: sharedFD, path: statePath)
            opened.append(stateFD)
            let taken = try StoreLock(stateDirectory: stateFD, storePath: rootPath)
            lock = taken
            self.lock = taken
            Store.removeLeftoverTemporaries(in: deviceFD)
            let stagingFD = try Store.subdirectory("tmp", of: stateFD, path: statePath + "/tmp")
            opened.append(stagingFD)
            let trashFD = try Store.subdirectory("trash", of: stateFD, path: statePath + "/trash")
            opened.append(trashFD)
            directories = StoreDirectories(root: rootPath, rootFD: rootDirectory, device: device, sharedFD: sharedFD,
                                           devicesFD: devicesFD, deviceFD: deviceFD, stateFD: stateFD,
                                           stagingFD: stagingFD, trashFD: trashFD)
            reviewLog = try ReviewLog(logDirectory: deviceFD, logDirectoryPath: devicePath, stateDirectory: stateFD, statePath: statePath,
                                defersSync: groupCommit)
            inotify = try Store.failing(.watch, rootPath) { () throws(Errno) in try Inotify(limit: watchLimit) }
        } catch {
            for fd in opened.reversed() { fd.close() }
            lock?.release()
            throw error
        }
        var abandon: (() -> Void)?
        do {
            // The root is watched for the level directories themselves: one removed with rmdir
            // sends no event of its own while the box holds it open.
            levels.rootWatch = try Store.failing(.watch, rootPath) { () throws(Errno) in
                try inotify.watch(directory: rootPath)
            }
            for level in Level.allCases {
                // At open a level that is not a directory stops the daemon, with the reason: nothing
                // about the store can be trusted yet, and the person is there to read it.
                levels.fds.append(try openLevel(level))
            }
            abandon = beforeScan(self)
            // Watch before scanning, so that nothing done during the scan is missed.
            opening.stamps = levelStampList()
            try scanAll()
            try repair(now: now)
        } catch {
            abandon?()
            for case let fd? in levels.fds { fd.close() }
            directories.close()
            self.lock.release()
            throw error
        }
    }

    /// Syncs what is pending, writes a checkpoint and releases the lock.
    func close() {
        try? checkpoint()
        lock.release()
        for case let fd? in levels.fds { fd.close() }
        levels.fds = levels.fds.map { _ in nil }
        directories.close()
    }

    // MARK: What the store's extensions and the box may know

    // The state above is private to this file. What the rest of LeitnerCore reads of it is what
    // never changes after open (the paths, the directories, the log) and what the open found;
    // everything else it asks and tells through the methods below and in the sections after,
    // each named for what it means (the box asks the questions at "Questions"; the store's
    // extensions in Scan/, Sync/ and Journal/ tell what they found at "Findings"), and the views
    // learn what changed from the change feed.

    /// The store's canonical absolute path.
    var root: String { directories.root }
    var rootFD: FileDescriptor { directories.rootFD }
    /// This device's id (`DeviceID`).
    var device: String { directories.device }
    var sharedFD: FileDescriptor { directories.sharedFD }
    var devicesFD: FileDescriptor { directories.devicesFD }
    var deviceFD: FileDescriptor { directories.deviceFD }

    /// Removes what a write killed half-way left in this device's directory: the temporary of
    /// `FileSystem.writeAtomically` (`.NAME.tmp-PID`) of its published history or its days. That
    /// directory is carried by every sync tool to every machine (docs/sync.md), and the next
    /// daemon, of another pid, would never write over it. Only this device writes there, and its
    /// lock is held when this runs; a name that fails to go is left for the next start.
    static func removeLeftoverTemporaries(in directory: FileDescriptor) {
        guard let entries = try? FileSystem.list(directory) else { return }
        for entry in entries where isLeftoverTemporary(entry.name) {
            try? FileSystem.removeFile(entry.name, in: directory)
        }
    }

    /// True for `.NAME.tmp-DIGITS`, the temporary name `FileSystem.writeAtomically` gives.
    static func isLeftoverTemporary(_ name: String) -> Bool {
        let bytes = Array(name.utf8), tag = Array(".tmp-".utf8)
        var digits = bytes.count
        while digits > 0, (48...57).contains(bytes[digits - 1]) { digits -= 1 }
        // A dot, a name of at least one byte, the tag, then at least one digit.
        guard bytes.first == UInt8(ascii: "."), digits < bytes.count, digits >= tag.count + 2 else { return false }
        return bytes[(digits - tag.count)..<digits].elementsEqual(tag)
    }
    var stateFD: FileDescriptor { directories.stateFD }
    var stagingFD: FileDescriptor { directories.stagingFD }
    var trashFD: FileDescriptor { directories.trashFD }
    var log: ReviewLog { reviewLog }
    /// Why the checkpoint after repair could not be made, if it could not (reported, not fatal).
    var checkpointFailure: BoxError? { opening.checkpointFailure }
    func noteCheckpointFailure(_ error: BoxError) { opening.checkpointFailure = error }
    /// The level directories' stamps when the open began, before its scan (`levelStampList`).
    var stampsAtOpen: [String] { opening.stamps }

    // MARK: Questions

    /// The card's level, nil when the box has no such card.
    func level(of id: String) -> Level? { index[id] }

    /// The level of the card that is entry `number` of `other`, a copy of the index taken
    /// earlier (a listing's): found by its place when the index has not been rebuilt since.
    func level(ofEntry number: UInt32, of other: CardIndex) -> Level? { index.level(ofEntry: number, of: other) }

    /// Every card's level: a snapshot to walk (the index's storage is shared until the store
    /// changes it).
    var cardLevels: CardIndex { index }

    /// True when the card was found damaged (R21) and not mended since.
    func isDamaged(_ id: String) -> Bool { damage[id] != nil }

    /// The cards found damaged (R21) → the reason.
    var damagedCards: [String: String] { damage }

    /// True when the card's directory is in more than one level (a sync tool's copy, R13).
    func hasCopies(_ id: String) -> Bool { found.copies[id] != nil }

    /// The levels the card's directory is in, the served one included, when it is in more than
    /// one; nil otherwise (R13).
    func duplicateLevels(of id: String) -> Set<Level>? { found.copies[id] }

    /// The cards whose directory is in more than one level.
    var cardsWithCopies: some Collection<String> { found.copies.keys }

    /// The entries of the level directories that are neither cards nor loose files, and the
    /// duplicate card directories, by path.
    var strayProblems: [StoreProblem] { found.strays.values.sorted { $0.path < $1.path } }

    /// True when `path` (an entry of a level directory) is reported as a stray or a duplicate.
    func isStray(_ path: String) -> Bool { found.strays[path] != nil }

    /// The level directories that are unusable now, by path.
    var unusableLevels: [StoreProblem] { levels.problems.values.sorted { $0.path < $1.path } }

    /// The loose files (R14 candidates) last seen in a level directory.
    func looseFiles(in level: Level) -> Set<String> { found.looseFiles[level] ?? [] }

    /// The conflict copies of its sides a sync tool left in the card's directory, as last read.
    func conflictCopies(of id: String) -> [String] { found.conflictCopies[id] ?? [] }

    /// The card's text sides holding git's conflict markers, as last read.
    func conflictMarkers(of id: String) -> [String]? { found.conflictMarkers[id] }

    /// The cards a sync tool left conflict copies or markers in, as last read.
    var cardsWithConflicts: Set<String> { Set(found.conflictCopies.keys).union(found.conflictMarkers.keys) }

    /// How many conflicts the box knows of (`Status.problems`).
    var syncConflictCount: Int {
        found.conflictCopies.values.reduce(0) { $0 + $1.count } + found.conflictMarkers.values.reduce(0) { $0 + $1.count }
    }

    /// True when another machine has written to the store: it is synced (docs/sync.md). A
    /// browser device's log (R35) is written by this daemon, so it is no sign of a sync tool.
    var hasMachinePeers: Bool { peerDevices.values.contains { !$0.isBrowser } }

    /// The other device `name` as last looked at (`refreshPeerDays`), nil when it was not there.
    func peer(named name: String) -> PeerDevice? { peerDevices[name] }

    /// The other devices' names as last looked at.
    var peerDeviceNames: Set<String> { Set(peerDevices.keys) }

    /// The other devices' day records as last read (`refreshPeerDays`), by device name.
    var peerDayRecords: [DayRecord] {
        peerDevices.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value.days)
    }

    /// The size of the device `name`'s review log as last looked at, nil when unknown.
    func peerLogSize(_ name: String) -> Int? { peerDevices[name]?.logSignature?.size }

    // MARK: Findings, told by the scans and the reads

    /// Forgets the index and what the scans found beside the cards, before a full scan; `cards`
    /// sizes the index.
    func startIndex(minimumCapacity cards: Int) {
        index = CardIndex(minimumCapacity: cards)
        cardSetVersion += 1
        levelCounts = [Int](repeating: 0, count: Level.allCases.count)
        found.looseFiles.removeAll()
        found.strays.removeAll()
        found.copies.removeAll()
    }

    /// A full scan found the card directory `name` (an ASCII id, as the listing's bytes) in
    /// `level`: indexed there, or, when an earlier level holds it already, noted as a copy for
    /// `scanAll` to choose the one to serve.
    func indexScanned(_ name: UnsafeBufferPointer<UInt8>, in level: Level) {
        if let other = index.updateValue(level, forBytes: name) {
            index.updateValue(other, forBytes: name)
            if other != level { found.copies[String(decoding: name, as: UTF8.self), default: [other]].insert(level) }
        } else {
            levelCounts[level.rawValue - 1] += 1
        }
    }

    /// `indexScanned` for an id that is not ASCII.
    func indexScanned(_ name: String, in level: Level) {
        if let other = index.updateValue(level, forKey: name) {
            index[name] = other
            if other != level { found.copies[name, default: [other]].insert(level) }
        } else {
            levelCounts[level.rawValue - 1] += 1
        }
    }

    /// The levels holding a directory of the card, when more than one (nil: one or none).
    func noteCopies(of id: String, in levels: Set<Level>?) { found.copies[id] = levels }

    /// Reports an entry of a level directory that is not a card (a stray, a link, a conflict
    /// copy, a duplicate), by its path.
    func report(_ problem: StoreProblem) { found.strays[problem.path] = problem }

    /// Forgets what was reported of the entry at `path`: it went, or is a card again.
    func withdrawReport(at path: String) { found.strays[path] = nil }

    /// The loose files of a level directory as a scan listed them.
    func noteLooseFiles(_ names: Set<String>, in level: Level) { found.looseFiles[level] = names }

    /// A loose file came into a level directory; false when it was known already.
    @discardableResult
    func noteLooseFile(_ name: String, in level: Level) -> Bool {
        found.looseFiles[level, default: []].insert(name).inserted
    }

    /// A loose file left a level directory (gone, or adopted into a card).
    func forgetLooseFile(_ name: String, in level: Level) { found.looseFiles[level]?.remove(name) }

    /// Records why a read found the card damaged (R21), or with nil that it is whole. A card
    /// found whole again (mended by hand) is published as written, so that every view reads it
    /// again: the search index keeps no slot for a damaged card, so no watch of its named the
    /// mend, and the mended card was found by no search until it changed otherwise (R13).
    func noteDamage(of id: String, _ reason: String?) {
        if let reason {
            damage[id] = reason
        } else if damage.removeValue(forKey: id) != nil {
            publishWritten(id)
        }
    }

    /// A renamed card keeps the damage found under its old id.
    func carryDamage(from id: String, to newID: String) {
        if let reason = damage.removeValue(forKey: id) { damage[newID] = reason }
    }

    /// Records what a read of a card found a sync tool left; `marked` nil when the text was not read.
    func noteConflicts(copies: [String], marked: [String]?, of id: String) {
        found.conflictCopies[id] = copies.isEmpty ? nil : copies
        if let marked { found.conflictMarkers[id] = marked.isEmpty ? nil : marked }
    }

    /// The other devices as `refreshPeerDays` looked at them now.
    func notePeers(_ seen: [String: PeerDevice]) { peerDevices = seen }

    /// What `rootProblems()` found when the root had `stamp`, nil when it has changed since.
    func rootProblems(seenAt stamp: DirectoryStamp) -> [StoreProblem]? {
        listings.rootProblems.flatMap { $0.stamp == stamp ? $0.problems : nil }
    }

    /// Keeps what `rootProblems()` found at `stamp` (nil: nothing kept, the root is still changing).
    func noteRootProblems(_ problems: [StoreProblem], at stamp: DirectoryStamp?) {
        listings.rootProblems = stamp.flatMap { $0.isSettled() ? ($0, problems) : nil }
    }

    /// The other devices' names as `peerNames()` listed them when `.leitner/devices/` had `stamp`.
    func peerNames(seenAt stamp: DirectoryStamp) -> [String]? {
        listings.peerNames.flatMap { $0.stamp == stamp ? $0.names : nil }
    }

    /// Keeps the other devices' names listed at `stamp` (nil: nothing kept).
    func notePeerNames(_ names: [String], at stamp: DirectoryStamp?) {
        listings.peerNames = stamp.flatMap { $0.isSettled() ? ($0, names) : nil }
    }

    // MARK: The watch and the level directories

    /// The level a watch descriptor watches, nil for any other watch.
    func level(watchedBy watch: Int32) -> Level? { levels.watches[watch] }

    /// True when `watch` is the watch on the store's root.
    func isRootWatch(_ watch: Int32) -> Bool { watch == levels.rootWatch }

    /// True when a level directory is unusable now.
    var hasUnusableLevels: Bool { !levels.problems.isEmpty }

    /// The events of every watch since the last call (`refresh`).
    func drainWatch() throws(Errno) -> [Inotify.Event] { try inotify.drain() }

    /// Watches card directories for the views that follow their cards' files.
    var watcher: Inotify.Watcher { inotify.watcher }

    /// True once a view's watch was refused: a card directory may be unwatched, and a hand edit
    /// of its files then reaches the change feed only by the card's stamp, asked at each use.
    var viewWatchesRanOut: Bool { inotify.hasRunOut }

    /// Once, when the views' watches first ran out: the watches held and the limit.
    func takeWatchesRunOut() -> (held: Int, limit: Int)? {
        inotify.takeRunOut().map { ($0, inotify.limit) }
    }

    /// The absolute path of a level directory.
    func path(of level: Level) -> String { root + "/" + level.name }

    /// The absolute path of a card directory.
    func path(of id: String, in level: Level) -> String { root + "/" + level.name + "/" + id }

    /// The descriptor of a level directory.
    /// - Throws: `storeFailure` while the level's path is not a directory.
    func fd(_ level: Level) throws(BoxError) -> FileDescriptor {
        guard let fd = levels.fds[level.rawValue - 1] else {
            throw .storeFailure(path: path(of: level), reason: levels.problems[level]?.reason ?? "not open")
        }
        return fd
    }

    /// The descriptor of a level directory, nil while it has none.
    func openFD(_ level: Level) -> FileDescriptor? { levels.fds[level.rawValue - 1] }

    /// Cards per level, damaged cards left out (R21).
    func counts() -> [Level: Int] {
        var result: [Level: Int] = [:]
        for level in Level.allCases { result[level] = levelCounts[level.rawValue - 1] }
        for (id, _) in damage { if let level = index[id] { result[level, default: 0] -= 1 } }
        return result
    }

    // MARK: Index bookkeeping

    func setLevel(_ id: String, _ level: Level?) {
        let old = index[id]
        if (old == nil) != (level == nil) { cardSetVersion += 1 }
        if let old { levelCounts[old.rawValue - 1] -= 1 }
        index[id] = level
        if let level { levelCounts[level.rawValue - 1] += 1 } else {
            found.conflictCopies[id] = nil
            found.conflictMarkers[id] = nil
        }
        feed.publish(.level(id: id, from: old, to: level))
    }

    // MARK: The change feed

    /// Tells the views that the box rewrote a card's files in place: its level did not change
    /// (that is published by `setLevel`).
    func publishWritten(_ id: String) { feed.publish(.written(id: id)) }

    /// Tells the views that the box wrote, renamed or removed the note `id` (R30).
    func publishNote(_ id: String) {
        noteReads.forget(id)
        feed.publish(.note(id: id))
    }

    /// Tells the views about an event of a card directory's watch (`refresh`).
    func publishDirectoryEvent(watch: Int32, entry: String) {
        noteReads.event(watch: watch, entry: entry)
        feed.publish(.directory(entry: entry, watch: watch))
    }

    /// Tells the views that events were lost, or the levels scanned again: each reads everything again.
    func publishLost() {
        noteReads.forgetAll()
        feed.loseAll()
    }

    // MARK: Notes kept for their cards (R30)

    /// The note `note` for its cards' sides: as kept, or read (and kept when it may be).
    func noteForCards(_ note: String) -> Result<NoteRead, CardDamage> {
        if let kept = noteReads.kept[note] { return .success(kept) }
        let read = readNote(note)
        if case .success(let value) = read { noteReads.keep(value, of: note) }
        return read
    }

    func keepShown(_ sides: (front: Side, back: Side), of link: ClozeOf) { noteReads.keep(sides, of: link) }

    /// The note `note`'s directory is watched by `watch` (`NoteIndex`), or no longer (nil).
    func noteWatched(_ note: String, by watch: Int32?) { noteReads.watched(note, by: watch) }

    /// The first look's watches (`NoteLook`): `notes/`'s, and each note's both ways.
    func notesWatched(notes: Int32?, noteOfWatch: [Int32: String], watchOfNote: [String: Int32]) {
        noteReads.adopt(notes: notes, noteOfWatch: noteOfWatch, watchOfNote: watchOfNote)
    }

    /// `notes/` is watched by `watch`.
    func notesDirectoryWatched(_ watch: Int32) { noteReads.notesWatch = watch }

    /// A cursor on the feed for a view, at its end: taken when the view reads what it derives
    /// from, so that every change after that read reaches it.
    func openCursor() -> ChangeFeed.Cursor { feed.open() }

    /// Forgets the cursor of a view that is dropped.
    func closeCursor(_ cursor: ChangeFeed.Cursor) { feed.close(cursor) }

    /// The changes since the view's cursor, which moves past them; nil when the view must read
    /// everything again (`ChangeFeed.take`).
    func changes(since cursor: ChangeFeed.Cursor) -> ArraySlice<ChangeFeed.Change>? { feed.take(cursor) }

    /// True when the view holding `cursor` must read everything again.
    func isLost(_ cursor: ChangeFeed.Cursor) -> Bool { feed.isLost(cursor) }

    /// True when a card changed (or everything must be read again) since `cursor`: events
    /// taken in by `refresh` count, so after a request's start it says whether any card
    /// changed since the view's cursor opened.
    func hasChanges(since cursor: ChangeFeed.Cursor) -> Bool { feed.hasChanges(since: cursor) }

    // MARK: Journaled changes (R17, R18)

    /// Reopens the review log when its path names another file than the open one (a sync tool
    /// renamed a copy over it) or the open one changed size behind the box: everything written
    /// so far is made durable first (a checkpoint), so that the journal, whose offsets are the
    /// old file's, starts over empty. Done before every request, and before an append unless a look
    /// just before stands (`logCheckStands`): a line is never appended to a file nobody reads
    /// (docs/sync.md).
    func followReplacedLog() throws(BoxError) {
        if log.isReplaced() {
            try checkpoint()
            try log.reopen()
        }
        log.lookedAt = .now
    }

    /// How long a look at the log (`followReplacedLog`) stands for the appends after it: a
    /// request's append made within it, as a grade's is made some microseconds after the
    /// request's prologue looked, does not `fstatat` the log a second time. A sync tool's rename
    /// that falls between a look and the write is missed either way until the next look; this
    /// bounds that window at a millisecond, and a longer request (an import's staging) looks again.
    static let logCheckStands: Duration = .milliseconds(1)

    /// `followReplacedLog` before an append, unless the last look stands (`logCheckStands`).
    private func followReplacedLogBeforeAppend() throws(BoxError) {
        if let checked = log.lookedAt, MonotonicTime.now - checked < Store.logCheckStands { return }
        try followReplacedLog()
    }

    /// Appends entries to the review log (R16); durable ones are on disk when it returns (R17).
    func appendToLog(_ entries: [LogEntry], durable: Bool) throws(BoxError) {
        try followReplacedLogBeforeAppend()
        guard durable else { return try log.append(entries) }
        let change = ReviewLog.Change(entries)
        if !log.hasRoom(for: change) { try checkpoint() }
        try log.appendDurably(change)
    }

    /// A change carried out by renames, journaled: its log lines and its renames are written to the
    /// journal and synced, the renames done, then the lines appended to the log — so that at open
    /// a record whose lines reached the log is known to be finished (R18). When a rename or the
    /// append fails, what was done is undone and the record withdrawn: a failed request appends
    /// nothing and changes nothing (R16), and the next open does not redo it.
    func journaled(_ entries: [LogEntry], intent: [JournalIntent],
                   carryOut: () throws(BoxError) -> Void, undo: () throws(Errno) -> Void) throws(BoxError) {
        try followReplacedLogBeforeAppend()
        let change = ReviewLog.Change(entries, intent: intent)
        if !log.hasRoom(for: change) { try checkpoint() }
        let pending = try log.prepare(change)
        do { try carryOut() } catch {
            log.withdraw(pending)
            throw error
        }
        do { try log.commit(pending) } catch {
            do { try undo() } catch {
                // The change stands, journaled: the next open writes its lines into the log.
                log.refuseChanges("the review log cannot be appended to, and a change could not be undone (\(error))", after: error)
                return
            }
            log.withdraw(pending)
            throw error
        }
    }

    /// Moves a card directory between levels: the change is journaled, then the rename done (R17).
    func moveCard(_ id: String, from: Level, to: Level, journal: [LogEntry]) throws(BoxError) {
        let source = try fd(from)
        let target = try fd(to)
        let guardMark = try cardGuard(id, in: from)
        try journaled(journal, intent: [.move(id: id, from: from, to: to, guard: guardMark)], carryOut: { () throws(BoxError) in
            do throws(Errno) {
                try FileSystem.rename(id, in: source, to: id, in: target)
            } catch {
                throw .failing(.rename, path(of: id, in: from), error, doing: "cannot rename to '\(path(of: id, in: to))'")
            }
        }, undo: { () throws(Errno) in try FileSystem.rename(id, in: target, to: id, in: source) })
        setLevel(id, to)
    }

    /// Moves card directories from one level to another in one journaled change: one journal
    /// record and one sync for them all, then the renames (R17), carried out on a thread of their
    /// own while the box goes on — the day's opening builds its test's queue meanwhile
    /// (docs/performance.md, "Admissions"). The index has the cards in `to` from now on; the
    /// change is done, or undone, when `finishMoving` returns. The day's admissions (R23) move this way.
    /// - Throws: before anything is moved, a journal that cannot take the record.
    func beginMovingCards(_ ids: [String], from: Level, to: Level, journal: [LogEntry]) throws(BoxError) -> CardMoves {
        let source = try fd(from)
        let target = try fd(to)
        var intents: [JournalIntent] = []
        for id in ids { intents.append(.move(id: id, from: from, to: to, guard: try cardGuard(id, in: from))) }
        try followReplacedLogBeforeAppend()
        let change = ReviewLog.Change(journal, intent: intents)
        if !log.hasRoom(for: change) { try checkpoint() }
        // The record is written, not synced: the thread syncs it before the first rename, so that
        // no rename can reach the disk ahead of it (R18).
        let pending = try log.prepare(change, syncing: false)
        guard let file = log.journalFile else {
            log.withdraw(pending)
            throw .storeFailure(path: statePath + "/" + Journal.fileName, reason: "the journal is not open")
        }
        for id in ids { setLevel(id, to) }
        let moves = CardMoves(ids: ids, from: (from, source), to: (to, target), pending: pending)
        moves.start(flushing: file)
        return moves
    }

    /// Waits for the moves `beginMovingCards` began, then appends their lines to the log. When
    /// the flush or a rename failed, or the log cannot be appended to, the renames made are put
    /// back, the record withdrawn and the cards are in `from` again: nothing is moved or logged.
    func finishMoving(_ moves: CardMoves) throws(BoxError) {
        let outcome = moves.wait()
        func restoreLevels() { for id in moves.ids { setLevel(id, moves.from) } }
        switch outcome {
        case .flushFailed(let error):
            log.withdraw(moves.pending)
            restoreLevels()
            throw .failing(.sync, statePath + "/" + Journal.fileName, error)
        case .renameFailed(let id, let error):
            log.withdraw(moves.pending)
            restoreLevels()
            throw .failing(.rename, path(of: id, in: moves.from), error, doing: "cannot rename to '\(path(of: id, in: moves.to))'")
        case .moved:
            break
        }
        do { try log.commit(moves.pending) } catch {
            do throws(Errno) { try moves.undo() } catch {
                // The change stands, journaled: the next open writes its lines into the log.
                log.refuseChanges("the review log cannot be appended to, and a change could not be undone (\(error))", after: error)
                return
            }
            log.withdraw(moves.pending)
            restoreLevels()
            throw error
        }
    }

    /// The guard of a card directory just before the daemon renames it (`JournalIntent`).
    func cardGuard(_ id: String, in level: Level) throws(BoxError) -> CardGuard {
        do {
            let st = try FileSystem.status(id, in: try fd(level))
            guard st.isDirectory else {
                throw BoxError.storeFailure(path: path(of: id, in: level), reason: "not a directory")
            }
            return CardGuard(st)
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.stat, path(of: id, in: level), error, doing: "cannot look at the card")
        }
    }

    /// Writes a new card's assets under `.leitner/tmp/add-ID`, synced; `commitStagedCard` puts it in place.
    func stageCard(_ id: String, front: (name: String, bytes: [UInt8]), back: (name: String, bytes: [UInt8]),
                   typeAnswer: Bool = false, media: [(name: String, bytes: [UInt8])] = []) throws(BoxError) {
        let staged = "add-" + id
        let stagedPath = statePath + "/tmp/" + staged
        do {
            if FileSystem.exists(staged, in: stagingFD) { try FileSystem.removeTree(staged, in: stagingFD) }
            try FileSystem.makeDirectory(staged, in: stagingFD)
            try writeStagedFiles(staged, [front, back] + Store.typeAnswerFiles(typeAnswer) + media, sync: true)
            try stagingFD.sync()
        } catch {
            try? FileSystem.removeTree(staged, in: stagingFD)
            throw .failing(.write, stagedPath, error)
        }
    }

    /// The `type-answer` file (R32) a new card is staged with when its answer is to be typed:
    /// empty, as its content does not matter.
    static func typeAnswerFiles(_ typeAnswer: Bool) -> [(name: String, bytes: [UInt8])] {
        typeAnswer ? [(TypedAnswer.fileName, [])] : []
    }

    /// Writes `files` into the staged directory `staged` (made already), each new; synced with
    /// the directory when `sync`, else left for a batch's one `syncfs`.
    func writeStagedFiles(_ staged: String, _ files: [(name: String, bytes: [UInt8])], sync: Bool) throws(Errno) {
        let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
        defer { dir.close() }
        for (name, bytes) in files {
            let file = try FileDescriptor.open(name, relativeTo: dir, .writeOnly, options: [.create, .exclusive, .noFollow])
            defer { file.close() }
            try file.writeAll(bytes)
            if sync { try file.sync() }
        }
        if sync { try dir.sync() }
    }

    /// Puts a staged card in place: the change is journaled, then the rename done (R17).
    func commitStagedCard(_ id: String, level: Level, journal: [LogEntry]) throws(BoxError) {
        try commitStagedCards([StagedCard(staged: "add-" + id, id: id, level: level)], journal: journal)
    }

    /// Puts staged cards in place in one journaled change (a card and its reverse, R28; a note
    /// and its cards, R30, the note first): all of them or, should a rename fail, none (the ones
    /// made are taken back).
    func commitStagedCards(_ cards: [StagedCard], journal: [LogEntry], note: StagedNote? = nil) throws(BoxError) {
        var notes: FileDescriptor?
        defer { notes?.close() }
        do {
            var targets: [FileDescriptor] = []
            for card in cards { targets.append(try fd(card.level)) }
            var intents: [JournalIntent] = cards.map { .add(staged: $0.staged, id: $0.id, to: $0.level) }
            if let note {
                notes = try notesDirectory()
                intents.insert(.addNote(staged: note.staged, id: note.id), at: 0)
            }
            var placed = 0
            try journaled(journal, intent: intents, carryOut: { () throws(BoxError) in
                if let note, let notes {
                    do throws(Errno) {
                        try FileSystem.rename(note.staged, in: stagingFD, to: note.id, in: notes)
                    } catch {
                        if error == .exists || error == .notEmpty {
                            throw .invalidParameter(name: "id", reason: "a note '\(note.id)' exists in '\(root)/\(Store.notesDirectoryName)'")
                        }
                        throw .failing(.create, notePath(note.id), error)
                    }
                }
                for (card, target) in zip(cards, targets) {
                    do throws(Errno) {
                        try FileSystem.rename(card.staged, in: stagingFD, to: card.id, in: target)
                    } catch {
                        // The cards placed before this one go back, so that none of them stays.
                        for (done, doneTarget) in zip(cards, targets).prefix(placed).reversed() {
                            try? FileSystem.rename(done.id, in: doneTarget, to: done.staged, in: stagingFD)
                        }
                        if let note, let notes { try? FileSystem.rename(note.id, in: notes, to: note.staged, in: stagingFD) }
                        if error == .exists { throw .cardExists(id: card.id) }
                        throw .failing(.create, path(of: card.id, in: card.level), error)
                    }
                    placed += 1
                }
            }, undo: { () throws(Errno) in
                for (card, target) in zip(cards, targets).reversed() {
                    try FileSystem.rename(card.id, in: target, to: card.staged, in: stagingFD)
                }
                if let note, let notes { try FileSystem.rename(note.id, in: notes, to: note.staged, in: stagingFD) }
            })
        } catch {
            discardStaged(cards)
            if let note { discardStaged(note: note) }
            throw error
        }
        for card in cards { setLevel(card.id, card.level) }
        if let note { publishNote(note.id) }
    }

    /// A rename carried out first in a journaled change that holds others (a card's with its
    /// reverses' edits, a note's with its cards'), and how to take it back.
    typealias FirstRename = (intent: JournalIntent, carryOut: () throws(BoxError) -> Void, undo: () throws(Errno) -> Void)

    /// Deletes a card: the change is journaled, the directory renamed into the trash, then removed.
    func removeCard(_ id: String, from level: Level, journal: [LogEntry]) throws(BoxError) {
        try removeCards([(id, level)], journal: journal)
    }

    /// Deletes cards in one journaled change (a card and its reverses, R28): every directory is
    /// renamed into the trash, then removed; should a rename fail, the ones made are put back.
    /// - Parameter first: a rename carried out before the cards' (a note's into the trash, R30),
    ///   journaled with them, and undone should one of them fail.
    func removeCards(_ cards: [(id: String, level: Level)], journal: [LogEntry], first: FirstRename? = nil) throws(BoxError) {
        var planned: [(id: String, level: Level, source: FileDescriptor, trashed: String)] = []
        var intents: [JournalIntent] = first.map { [$0.intent] } ?? []
        for (number, card) in cards.enumerated() {
            let source = try fd(card.level)
            let guardMark = try cardGuard(card.id, in: card.level)
            let trashed = "\(card.id).\(CurrentProcess.id).\(log.size)" + (number == 0 ? "" : ".\(number)")
            planned.append((card.id, card.level, source, trashed))
            intents.append(.delete(id: card.id, from: card.level, guard: guardMark, trashed: trashed))
        }
        var removed = 0
        try journaled(journal, intent: intents, carryOut: { () throws(BoxError) in
            try first?.carryOut()
            for card in planned {
                do throws(Errno) {
                    try FileSystem.rename(card.id, in: card.source, to: card.trashed, in: trashFD)
                } catch {
                    for done in planned.prefix(removed).reversed() {
                        try? FileSystem.rename(done.trashed, in: trashFD, to: done.id, in: done.source)
                    }
                    try? first?.undo()
                    throw .failing(.rename, path(of: card.id, in: card.level), error, doing: "cannot delete")
                }
                removed += 1
            }
        }, undo: { () throws(Errno) in
            for card in planned.reversed() { try FileSystem.rename(card.trashed, in: trashFD, to: card.id, in: card.source) }
            try first?.undo()
        })
        for card in planned {
            setLevel(card.id, nil)
            damage[card.id] = nil
            try? FileSystem.removeTree(card.trashed, in: trashFD)
        }
    }

    /// Makes every rename so far durable (fsync of the level directories and the staging and
    /// trash directories) and the log, records the log offset, and starts the journal over: its
    /// records are spent. Done when the journal is full, after repair and at a clean shutdown.
    func checkpoint() throws(BoxError) {
        try log.flushJournal()
        for level in Level.allCases {
            guard let fd = openFD(level) else { continue }
            try Store.failing(.sync, path(of: level)) { () throws(Errno) in try fd.sync() }
        }
        for (fd, name) in [(stagingFD, "tmp"), (trashFD, "trash")] {
            try Store.failing(.sync, statePath + "/" + name) { () throws(Errno) in try fd.sync() }
        }
        // A note's rename (AddCloze, a rename or delete of a note, R30) is journaled as a card's is.
        if let notes = try? FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: rootFD) {
            defer { notes.close() }
            try Store.failing(.sync, root + "/" + Store.notesDirectoryName) { () throws(Errno) in try notes.sync() }
        }
        try log.sync()
        // A batch's record is spent once its renames and lines are synced; the directory's sync
        // in writing the checkpoint makes its removal durable.
        try Store.failing(.remove, statePath + "/" + BatchRecord.fileName) { () throws(Errno) in try BatchRecord.remove(in: stateFD) }
        do {
            try FileSystem.writeAtomically(Array("\(log.size)\n".utf8), to: "checkpoint", in: stateFD)
        } catch {
            throw .failing(.write, statePath + "/checkpoint", error)
        }
        log.startJournalOver()
    }

    // MARK: Helpers

    /// The modification and change times and link counts of the level directories, a level at a
    /// time in `Level.allCases`' order: any card moved in or out, created or removed changes them.
    func levelStampList() -> [String] {
        levels.fds.map { fd in
            // A level that cannot be looked at never matches a checkpoint: the open reconciles.
            guard let st = try? fd?.status() else { return "?" }
            return "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec),\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec),\(st.st_nlink)"
        }
    }

    private func openLevel(_ level: Level) throws(BoxError) -> FileDescriptor {
        let levelPath = path(of: level)
        do {
            try FileSystem.makeDirectory(level.name, in: rootFD, existingOK: true)
            let fd = try FileDescriptor.openDirectory(level.name, relativeTo: rootFD)
            // Its entries only: a card directory or a loose file that comes is reported as it
            // comes (a loose pair is adopted by its names, never by its contents), and a side
            // edited in place is a card directory's own event, not the level's.
            levels.watches[try inotify.watch(directory: levelPath, filesWritten: false)] = level
            return fd
        } catch where error == .tooManyLinks || error == .notDirectory {
            throw .storeFailure(path: levelPath, reason: "not a directory (a level must be a real directory, not a link)")
        } catch {
            throw .failing(.open, levelPath, error)
        }
    }

    /// Reopens a level directory that was removed or replaced by hand: a missing one is made
    /// again, as at open; one that is not a directory is dropped, reported, and refused until it
    /// is one again (`retryMissingLevels`). The old descriptor is closed and never used again.
    /// - Returns: true when the level has a descriptor again.
    @discardableResult
    func reopenLevel(_ level: Level) -> Bool {
        for (watch, watched) in levels.watches where watched == level {
            inotify.unwatch(watch)
            levels.watches[watch] = nil
        }
        levels.fds[level.rawValue - 1]?.close()
        levels.fds[level.rawValue - 1] = nil
        do {
            levels.fds[level.rawValue - 1] = try openLevel(level)
            levels.problems[level] = nil
            return true
        } catch {
            let reason: String
            if case .storeFailure(_, let why, _, _) = error { reason = why } else { reason = "\(error)" }
            levels.problems[level] = StoreProblem(kind: .strayEntry, path: path(of: level),
                                                reason: "the level directory is unusable: \(reason); level \(level) is refused meanwhile",
                                                advice: "make '\(path(of: level))' a directory again")
            return false
        }
    }

    /// True when the level's descriptor is the directory its path names now, still linked.
    func levelIsCurrent(_ level: Level) -> Bool {
        guard let fd = openFD(level), let named = try? FileSystem.status(level.name, in: rootFD) else { return false }
        guard let st = try? fd.status() else { return false }
        return st.st_nlink > 0 && st.st_ino == named.st_ino && st.st_dev == named.st_dev
    }

    /// Tries again to open the levels that had no directory; true when one came back.
    func retryMissingLevels() -> Bool {
        var reopened = false
        for level in Level.allCases where levels.fds[level.rawValue - 1] == nil {
            if reopenLevel(level) { reopened = true }
        }
        return reopened
    }

    /// Runs `body`, whose system calls are one `operation` on `path`, and names a failure as
    /// `BoxError.failing` does.
    static func failing<T>(_ operation: StoreOperation, _ path: String, doing: String? = nil,
                           _ body: () throws(Errno) -> T) throws(BoxError) -> T {
        do { return try body() } catch { throw .failing(operation, path, error, doing: doing) }
    }

    /// Creates (when missing) and opens a directory of the store's own.
    static func subdirectory(_ name: String, of parent: FileDescriptor, path: String) throws(BoxError) -> FileDescriptor {
        try failing(.open, path) { () throws(Errno) in
            try FileSystem.makeDirectory(name, in: parent, mode: 0o700, existingOK: true)
            return try FileDescriptor.openDirectory(name, relativeTo: parent)
        }
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) throws(BoxError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try Store.failing(.makeDirectory, prefix) { () throws(Errno) in try FileSystem.makeDirectory(prefix, in: nil, mode: 0o700, existingOK: true) }
        }
    }
}
