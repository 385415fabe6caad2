import Glibc

/// File-system operations relative to open directories. Every call goes through `valueOrErrno`.
public enum FileSystem {
    /// The directory part of `path`, as `dirname` says it: `/run/user/1000/leitner` of
    /// `/run/user/1000/leitner/leitnerd.sock`, `/` of `/a`, `.` of a bare name.
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Lists a directory's entries (not `.` and `..`), names and `d_type` only: no `stat`.
    public static func list(_ directory: FileDescriptor) throws(Errno) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        try forEachEntry(directory) { name, kind in entries.append(DirectoryEntry(name: name, kind: kind)) }
        return entries
    }

    /// Calls `body` for each entry of a directory, names and `d_type` only, reading it with
    /// `getdents64` from its start (the descriptor's offset is moved).
    /// - Parameter fresh: the descriptor was just opened, so it is at the start already: no
    ///   `lseek`, and a buffer of 4 KiB on the stack, ample for a card's directory (a larger
    ///   directory is read in more calls). Listing 100,000 cards reads 100,000 directories.
    public static func forEachEntry(_ directory: FileDescriptor, fresh: Bool = false,
                                    _ body: (String, EntryKind) -> Void) throws(Errno) {
        if fresh {
            try withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { (buffer) throws(Errno) in
                try forEachEntry(directory, buffer: buffer.baseAddress!, capacity: buffer.count, body)
            }
            return
        }
        try forEachEntryName(directory) { name, kind in body(String(decoding: name, as: UTF8.self), kind) }
    }

    /// `forEachEntry` with each name as the bytes the kernel gave, valid during the call only:
    /// the store's scan at open indexes 100,000 card names without making a string of each.
    public static func forEachEntryName(_ directory: FileDescriptor,
                                        _ body: (UnsafeBufferPointer<UInt8>, EntryKind) -> Void) throws(Errno) {
        try nothingOrErrno { lseek(directory.rawValue, 0, SEEK_SET) }
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        try forEachEntry(directory, buffer: buffer, capacity: capacity, body)
    }

    private static func forEachEntry(_ directory: FileDescriptor, buffer: UnsafeMutableRawPointer, capacity: Int,
                                     _ body: (String, EntryKind) -> Void) throws(Errno) {
        try forEachEntry(directory, buffer: buffer, capacity: capacity) { name, kind in
            body(String(decoding: name, as: UTF8.self), kind)
        }
    }

    private static func forEachEntry(_ directory: FileDescriptor, buffer: UnsafeMutableRawPointer, capacity: Int,
                                     _ body: (UnsafeBufferPointer<UInt8>, EntryKind) -> Void) throws(Errno) {
        while true {
            let count = try valueOrErrno { getdents64(directory.rawValue, buffer, capacity) }
            if count == 0 { return }
            var offset = 0
            while offset < count {
                // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[].
                let recordLength = Int(buffer.load(fromByteOffset: offset + 16, as: UInt16.self))
                let type = buffer.load(fromByteOffset: offset + 18, as: UInt8.self)
                let name = buffer.advanced(by: offset + 19).assumingMemoryBound(to: UInt8.self)
                let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
                offset += recordLength
                if length == 1 && name[0] == 46 || length == 2 && name[0] == 46 && name[1] == 46 { continue }
                let kind: EntryKind
                switch Int32(type) {
                case Int32(DT_DIR): kind = .directory
                case Int32(DT_REG): kind = .file
                case Int32(DT_LNK): kind = .symlink
                case Int32(DT_UNKNOWN): kind = .unknown
                default: kind = .other
                }
                body(UnsafeBufferPointer(start: name, count: length), kind)
            }
        }
    }

    /// `lstat` of `name` in `directory`: the entry itself, not what a link points to.
    public static func status(_ name: String, in directory: FileDescriptor?) throws(Errno) -> stat {
        var st = stat()
        try nothingOrErrno { fstatat(directory?.rawValue ?? AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) }
        return st
    }

    /// `status(_:in:)` of a name already NUL-terminated in memory: the caller builds thousands of
    /// paths in one buffer, with no string each.
    public static func status(cString name: UnsafePointer<CChar>, in directory: FileDescriptor?) throws(Errno) -> stat {
        var st = stat()
        try nothingOrErrno { fstatat(directory?.rawValue ?? AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) }
        return st
    }

    /// Sets the access and modification times of `name` (not following a link) to
    /// `milliseconds` since the epoch: a cache marks a file as used, and a test ages one.
    public static func setModificationTime(_ name: String, in directory: FileDescriptor?, milliseconds: Int64) throws(Errno) {
        let time = timespec(tv_sec: Int(milliseconds / 1000), tv_nsec: Int(milliseconds % 1000) * 1_000_000)
        var times = (time, time)
        try nothingOrErrno {
            withUnsafePointer(to: &times) { pair in
                pair.withMemoryRebound(to: timespec.self, capacity: 2) {
                    utimensat(directory?.rawValue ?? AT_FDCWD, name, $0, AT_SYMLINK_NOFOLLOW)
                }
            }
        }
    }

    /// True when `name` exists in `directory` (as any kind of entry).
    public static func exists(_ name: String, in directory: FileDescriptor?) -> Bool {
        (try? status(name, in: directory)) != nil
    }

    /// Creates a directory; succeeds when it already exists as a directory if `existingOK`.
    public static func makeDirectory(_ name: String, in directory: FileDescriptor?, mode: mode_t = 0o755,
                                     existingOK: Bool = false) throws(Errno) {
        try CrashPoint.step()
        do {
            try nothingOrErrno { mkdirat(directory?.rawValue ?? AT_FDCWD, name, mode) }
        } catch where existingOK && error == .exists {
            let st = try status(name, in: directory)
            if st.st_mode & S_IFMT != S_IFDIR { throw Errno.notDirectory }
        }
    }

    /// Creates the directory `path` and each missing one above it (`mkdir -p`), each with
    /// `mode`; a component that exists as a directory is taken as it is.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(Errno) {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            made += "/" + component
            try makeDirectory(made, in: nil, mode: mode, existingOK: true)
        }
    }

    /// Renames an entry, refusing to replace an existing one (`RENAME_NOREPLACE`).
    public static func rename(_ from: String, in fromDirectory: FileDescriptor?,
                              to: String, in toDirectory: FileDescriptor?,
                              replacing: Bool = false) throws(Errno) {
        try CrashPoint.step()
        let flags: UInt32 = replacing ? 0 : 1 // RENAME_NOREPLACE
        try nothingOrErrno {
            renameat2(fromDirectory?.rawValue ?? AT_FDCWD, from, toDirectory?.rawValue ?? AT_FDCWD, to, flags)
        }
    }

    /// Swaps two entries atomically (`RENAME_EXCHANGE`): each name then names the other's
    /// inode, and at no instant is either name missing.
    public static func exchange(_ first: String, in firstDirectory: FileDescriptor,
                                with second: String, in secondDirectory: FileDescriptor) throws(Errno) {
        try CrashPoint.step()
        let flags: UInt32 = 2 // RENAME_EXCHANGE
        try nothingOrErrno { renameat2(firstDirectory.rawValue, first, secondDirectory.rawValue, second, flags) }
    }

    /// Makes `name` in `directory` a hard link to `existing` in `existingDirectory`; a symbolic
    /// link is linked itself, not followed.
    public static func link(_ existing: String, in existingDirectory: FileDescriptor,
                            as name: String, in directory: FileDescriptor) throws(Errno) {
        try nothingOrErrno { linkat(existingDirectory.rawValue, existing, directory.rawValue, name, 0) }
    }

    /// Makes `name` in `directory` a hard link to the open file `file` — the very file opened,
    /// whatever its name leads to since — through its `/proc/self/fd` entry (`linkat` with
    /// `AT_EMPTY_PATH` would need a capability).
    /// - Throws: `Errno`; `ENOENT` where `/proc` is not mounted.
    public static func link(_ file: FileDescriptor, as name: String, in directory: FileDescriptor) throws(Errno) {
        try nothingOrErrno { linkat(AT_FDCWD, "/proc/self/fd/\(file.rawValue)", directory.rawValue, name, AT_SYMLINK_FOLLOW) }
    }

    /// Removes a file.
    public static func removeFile(_ name: String, in directory: FileDescriptor?) throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { unlinkat(directory?.rawValue ?? AT_FDCWD, name, 0) }
    }

    /// Removes an empty directory.
    public static func removeDirectory(_ name: String, in directory: FileDescriptor?) throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { unlinkat(directory?.rawValue ?? AT_FDCWD, name, AT_REMOVEDIR) }
    }

    /// Removes a directory and everything in it, following no link.
    public static func removeTree(_ name: String, in directory: FileDescriptor) throws(Errno) {
        let st = try status(name, in: directory)
        if st.st_mode & S_IFMT != S_IFDIR {
            try removeFile(name, in: directory)
            return
        }
        let child = try FileDescriptor.openDirectory(name, relativeTo: directory)
        defer { child.close() }
        for entry in try list(child) {
            try removeTree(entry.name, in: child)
        }
        try removeDirectory(name, in: directory)
    }

    /// Reads a whole file relative to `directory`, following no final symbolic link.
    public static func readFile(_ name: String, in directory: FileDescriptor?,
                                limit: Int = Int.max) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(name, relativeTo: directory, flags: O_RDONLY | O_NOFOLLOW)
        defer { fd.close() }
        return try fd.readAll(limit: limit)
    }

    /// Reads a whole file at `path` (a configuration file, say), following links.
    public static func readFile(atPath path: String, limit: Int = Int.max) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path, flags: O_RDONLY)
        defer { fd.close() }
        return try fd.readAll(limit: limit)
    }

    /// Writes a file durably and atomically (R17, R18): a temporary name, fsync, rename over
    /// `name`, fsync of the directory.
    public static func writeAtomically(_ bytes: some Collection<UInt8>, to name: String,
                                       in directory: FileDescriptor, mode: mode_t = 0o644) throws(Errno) {
        let temporary = ".\(name).tmp-\(getpid())"
        let fd = try FileDescriptor.open(temporary, relativeTo: directory,
                                         flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: mode)
        // The descriptor is closed exactly once, whichever step fails: a second close of its
        // number could close a descriptor another thread has opened since (the daemon and the
        // tests are threaded), and a failed rename must not close it again.
        do {
            defer { fd.close() }
            try fd.writeAll(bytes)
            try fd.sync()
        } catch {
            try? removeFile(temporary, in: directory)
            throw error
        }
        do {
            try rename(temporary, in: directory, to: name, in: directory, replacing: true)
        } catch {
            try? removeFile(temporary, in: directory)
            throw error
        }
        try directory.sync()
    }

    /// Where temporary directories are made: `$TMPDIR` when it is an absolute path, else `/tmp`.
    public static var temporaryBase: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    }

    /// Makes a new directory `PREFIX-XXXXXX` (mode 0700, a unique name) in `temporaryBase`, and
    /// returns its path.
    public static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array("\(temporaryBase)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Errno.current }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The canonical absolute path of `path`, links resolved.
    public static func realPath(_ path: String) throws(Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw Errno.current }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The target of a symbolic link.
    public static func linkTarget(_ name: String, in directory: FileDescriptor) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = try valueOrErrno { readlinkat(directory.rawValue, name, &buffer, buffer.count - 1) }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// glibc has `getdents64` since 2.30, hidden from Swift like `renameat2`.
private let getdents64: @convention(c) (Int32, UnsafeMutableRawPointer, Int) -> Int = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getdents64") else {
        fatalError("the C library has no getdents64 (glibc 2.30 or later is needed)")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutableRawPointer, Int) -> Int).self)
}()

/// glibc has `renameat2` since 2.28, but its header hides it from Swift (`_GNU_SOURCE`): look it up.
private let renameat2: @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
        fatalError("the C library has no renameat2 (glibc 2.28 or later is needed)")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
}()
