import LeitnerSystem

/// Moves a store made before devices (its review log, day record and private state directly in
/// `.leitner/`) into the layout of docs/store-format.md: the log and the day record into
/// `.leitner/devices/DEVICE/`, the private state into `.leitner/local.DEVICE/`. Done once, at the
/// first start of a daemon that knows devices, after a backup of the old files.
///
/// It rolls forward: the files are moved into `devices/DEVICE.migrating/` and
/// `local.DEVICE.migrating/`, which are renamed into place only once everything is in them. A
/// crash at any point leaves either the old layout whole (the next start begins again), or
/// `*.migrating` directories that the next start finishes filling and renames: nothing is ever
/// half in one layout and half in the other at open.
enum StoreMigration {
    /// The old layout's files of the device's own log and day record.
    static let sharedFiles = [ReviewLog.fileName, DayRecordFile.name]
    /// The old layout's private files and directories.
    static let privateFiles = [Journal.fileName, "checkpoint", TestFile.name, TestFile.ready, TestFile.name + ".damaged",
                               BatchRecord.fileName, "tmp", "trash"]
    /// In a device's directory: the length of its log when it was migrated (docs/sync.md).
    static let migratedFileName = "migrated"

    /// The length of the history from before devices in the log of the device directory
    /// `directory`: 0 for a device that began with devices.
    static func sharedHistoryLength(in directory: FileDescriptor) -> Int {
        guard let bytes = try? FileSystem.readFile(migratedFileName, in: directory, limit: 64) else { return 0 }
        return Int(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? "") ?? 0
    }

    /// The backup of the old files, in `.leitner/`.
    static func backupName(_ device: String) -> String { "backup-before-devices." + device }

    /// Migrates the store whose `.leitner/` is `shared` when it is in the old layout, or finishes
    /// a migration a crash cut off. Old files that arrive once this device has migrated (from a
    /// machine still running an older leitner, through a sync tool) are left alone: `doctor`
    /// reports them (`leftovers`).
    /// - Throws: `StoreLockedError` while an older daemon holds the old lock; `storeFailure`.
    static func migrate(shared: FileDescriptor, sharedPath: String, device: String, storePath: String, now: Int64) throws {
        let devicesName = Store.devicesDirectoryName
        let deviceStaging = device + ".migrating"
        let privateName = Store.privateDirectoryName(device)
        let privateStaging = privateName + ".migrating"
        let devices = try? FileDescriptor.openDirectory(devicesName, relativeTo: shared)
        defer { devices?.close() }
        let pending = FileSystem.exists(privateStaging, in: shared)
            || devices.map { FileSystem.exists(deviceStaging, in: $0) } == true
        let old = (sharedFiles + privateFiles).contains { FileSystem.exists($0, in: shared) }
        let migrated = devices.map { FileSystem.exists(device, in: $0) } == true || FileSystem.exists(privateName, in: shared)
        guard pending || (old && !migrated) else { return }

        // An older daemon still running on the store holds the old lock: wait for it to stop.
        let oldLock = try? FileDescriptor.open("lock", relativeTo: shared, .readWrite, options: [.noFollow])
        defer { oldLock?.close() }
        if let oldLock, try !oldLock.tryLockExclusive() {
            let text = (try? oldLock.readAll(limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            throw StoreLockedError(storePath: storePath, pid: Int32(text.split(separator: "\n").first ?? ""))
        }

        try Store.failing(.rename, sharedPath, doing: "cannot migrate to devices") { () throws(Errno) in
            if !pending { try backup(shared, device: device) }
            try FileSystem.makeDirectory(devicesName, in: shared, mode: 0o700, existingOK: true)
            let devices = try FileDescriptor.openDirectory(devicesName, relativeTo: shared)
            defer { devices.close() }
            let deviceDone = FileSystem.exists(device, in: devices)
            let privateDone = FileSystem.exists(privateName, in: shared)
            if !deviceDone { try FileSystem.makeDirectory(deviceStaging, in: devices, mode: 0o700, existingOK: true) }
            if !privateDone { try FileSystem.makeDirectory(privateStaging, in: shared, mode: 0o700, existingOK: true) }
            if !deviceDone {
                let target = try FileDescriptor.openDirectory(deviceStaging, relativeTo: devices)
                defer { target.close() }
                for name in sharedFiles where FileSystem.exists(name, in: shared) {
                    try FileSystem.rename(name, in: shared, to: name, in: target)
                }
                // How much of the log is history from before devices: if the machines shared
                // it, each device's log holds a copy, and `Log` tells each line once.
                let size = (try? FileSystem.status(ReviewLog.fileName, in: target)).map { Int($0.st_size) } ?? 0
                try FileSystem.writeAtomically(Array("\(size)\n".utf8), to: migratedFileName, in: target)
                try target.sync()
            }
            if !privateDone {
                let target = try FileDescriptor.openDirectory(privateStaging, relativeTo: shared)
                defer { target.close() }
                for name in privateFiles where FileSystem.exists(name, in: shared) {
                    try FileSystem.rename(name, in: shared, to: name, in: target)
                }
                try target.sync()
            }
            try shared.sync()
            // Everything is in the staging directories: now they take their names.
            if !deviceDone { try FileSystem.rename(deviceStaging, in: devices, to: device, in: devices) }
            try devices.sync()
            if !privateDone { try FileSystem.rename(privateStaging, in: shared, to: privateName, in: shared) }
            if oldLock != nil { try? FileSystem.removeFile("lock", in: shared) }
            try shared.sync()
        }
    }

    /// Copies the old layout's files (not the staging and trash directories, which hold copies
    /// of cards) into `.leitner/backup-before-devices.DEVICE/`, synced, under a temporary name
    /// renamed when whole. A backup already there (a migration cut off earlier) is kept.
    private static func backup(_ shared: FileDescriptor, device: String) throws(Errno) {
        let name = backupName(device)
        if FileSystem.exists(name, in: shared) { return }
        let temporary = name + ".tmp"
        if FileSystem.exists(temporary, in: shared) { try FileSystem.removeTree(temporary, in: shared) }
        try FileSystem.makeDirectory(temporary, in: shared, mode: 0o700)
        let target = try FileDescriptor.openDirectory(temporary, relativeTo: shared)
        defer { target.close() }
        for file in sharedFiles + privateFiles + ["created"] {
            guard let st = try? FileSystem.status(file, in: shared), st.isRegularFile else { continue }
            let source = try FileDescriptor.open(file, relativeTo: shared, .readOnly, options: [.noFollow])
            defer { source.close() }
            let copy = try FileDescriptor.open(file, relativeTo: target, .writeOnly, options: [.create, .exclusive, .noFollow], mode: 0o600)
            defer { copy.close() }
            var offset = 0
            while true {
                let chunk = try source.read(at: offset, upTo: 1 << 20)
                if chunk.isEmpty { break }
                try copy.writeAll(chunk)
                offset += chunk.count
            }
            try copy.sync()
        }
        try target.sync()
        try FileSystem.rename(temporary, in: shared, to: name, in: shared)
        try shared.sync()
    }

    /// Files of the old layout found in `.leitner/` after this device migrated: a machine still
    /// running an older leitner wrote them, and a sync tool brought them. They are not read.
    static func leftovers(in shared: FileDescriptor) -> [String] {
        (sharedFiles + privateFiles).filter { FileSystem.exists($0, in: shared) }
    }
}
