import Glibc

/// An open file descriptor. A value type: the owner closes it with `close()`.
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` relative to `directory` (or the working directory), close-on-exec.
    public static func open(_ path: String, relativeTo directory: FileDescriptor? = nil,
                            flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let dirfd = directory?.rawValue ?? AT_FDCWD
        if flags & (O_CREAT | O_TRUNC) != 0 { try CrashPoint.step() }
        let fd = try valueOrErrno { openat(dirfd, path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a directory for `*at` calls and listing, following no symbolic link.
    public static func openDirectory(_ path: String, relativeTo directory: FileDescriptor? = nil) throws(Errno) -> FileDescriptor {
        try open(path, relativeTo: directory, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    }

    /// Closes the descriptor; errors from `close` are not actionable and are ignored.
    public func close() { _ = Glibc.close(rawValue) }

    /// Reads up to `count` bytes; an empty result means end of file.
    public func read(upTo count: Int) throws(Errno) -> [UInt8] {
        // Not zero-filled first: a card's side is read with room for 64 KiB and is mostly a few bytes.
        var failure: Errno?
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            do throws(Errno) {
                initialized = try valueOrErrno { Glibc.read(rawValue, raw.baseAddress, count) }
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return buffer
    }

    /// Reads up to `count` bytes from `offset` on (`pread`), fewer only at the end of the file;
    /// the file offset is left alone.
    public func read(at offset: Int, upTo count: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let base = done
            let n = try valueOrErrno {
                bytes.withUnsafeMutableBytes { raw in pread(rawValue, raw.baseAddress! + base, count - base, off_t(offset + base)) }
            }
            if n == 0 { break }
            done += n
        }
        bytes.removeLast(count - done)
        return bytes
    }

    /// Reads the whole file from the current offset, refusing more than `limit` bytes.
    public func readAll(limit: Int = Int.max) throws(Errno) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try read(upTo: 1 << 16)
            if chunk.isEmpty { return result }
            result += chunk
            if result.count > limit { throw Errno(rawValue: EFBIG) }
        }
    }

    /// Writes all of `bytes`, continuing after short writes.
    public func writeAll(_ bytes: some Collection<UInt8>) throws(Errno) {
        try CrashPoint.step()
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let n = try valueOrErrno {
                array.withUnsafeBytes { raw in Glibc.write(rawValue, raw.baseAddress! + offset, raw.count - offset) }
            }
            offset += n
        }
    }

    /// Writes all of `bytes` at `offset`, leaving the file offset alone (`pwrite`). On a file
    /// opened with `O_APPEND`, Linux appends instead: open such a file without it.
    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(Errno) {
        try CrashPoint.step()
        var done = 0
        while done < bytes.count {
            let n = try valueOrErrno {
                bytes.withUnsafeBytes { raw in pwrite(rawValue, raw.baseAddress! + done, raw.count - done, off_t(offset + done)) }
            }
            done += n
        }
    }

    /// Flushes the file's data and metadata to the disk (R17).
    public func sync() throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { fsync(rawValue) }
    }

    /// Flushes the file's data to the disk, metadata only where needed to read it back.
    public func syncData() throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { fdatasync(rawValue) }
    }

    /// Flushes every file of the file system this descriptor is on, data and metadata, and waits
    /// (`syncfs`): one flush of the device for thousands of new files, where a `fsync` of each
    /// would flush it once per file. Linux reports a write-back error of any of them since 5.8.
    public func syncFileSystem() throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { syncfs(rawValue) }
    }

    /// Starts writing `count` bytes at `offset` back to the disk and returns without waiting
    /// (`sync_file_range` with `SYNC_FILE_RANGE_WRITE` alone): a hint, so that a `syncData` soon
    /// after finds that data written or under way and waits for the rest only. It makes nothing
    /// durable and reports nothing: a write-back error is the later sync's to report, and without
    /// a wait flag this call neither sees nor consumes one.
    public func startWriteBack(at offset: Int, count: Int) {
        _ = syncFileRange(rawValue, off_t(offset), off_t(count), syncFileRangeWrite)
    }

    /// The size of the file.
    public func size() throws(Errno) -> Int {
        var st = stat()
        try nothingOrErrno { fstat(rawValue, &st) }
        return Int(st.st_size)
    }

    /// Moves the file offset.
    @discardableResult
    public func seek(to offset: Int, whence: Int32 = SEEK_SET) throws(Errno) -> Int {
        Int(try valueOrErrno { lseek(rawValue, off_t(offset), whence) })
    }

    /// Cuts the file to `size` bytes.
    public func truncate(to size: Int) throws(Errno) {
        try CrashPoint.step()
        try nothingOrErrno { ftruncate(rawValue, off_t(size)) }
    }
}

/// glibc declares `sync_file_range` and its flags only under `_GNU_SOURCE`, as `syncfs`.
private let syncFileRange: @convention(c) (Int32, off_t, off_t, UInt32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range") else {
        fatalError("the C library has no sync_file_range (glibc 2.6 or later is needed)")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, off_t, off_t, UInt32) -> Int32).self)
}()

/// `SYNC_FILE_RANGE_WRITE` of <fcntl.h>.
private let syncFileRangeWrite: UInt32 = 2

/// glibc declares `syncfs` only under `_GNU_SOURCE`, which Swift's Glibc module does not set.
private let syncfs: @convention(c) (Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else {
        fatalError("the C library has no syncfs (glibc 2.14 or later is needed)")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
}()
