import LeitnerSystem

/// The store's lock (R19): an exclusive `flock` on `.leitner/lock`, which holds the owner's pid.
/// The kernel releases it when the process dies, so a crashed daemon never leaves it stale.
final class StoreLock {
    private let fd: FileDescriptor

    /// Takes the lock.
    /// - Throws: `StoreLockedError` naming the store and the holder's pid; `Errno` on I/O failure.
    init(stateDirectory: FileDescriptor, storePath: String) throws {
        fd = try FileDescriptor.open("lock", relativeTo: stateDirectory,
                                     .readWrite, options: [.create, .noFollow], mode: 0o644)
        guard try fd.tryLockExclusive() else {
            let text = (try? fd.readAll(limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            fd.close()
            throw StoreLockedError(storePath: storePath,
                                   pid: Int32(text.split(separator: "\n").first ?? ""))
        }
        // The pid is for a person and `holder`; the flock is the lock. On a full disk the write
        // fails (the file's page was freed by the last release's truncate): the store still opens,
        // its holder unnamed, rather than the daemon refusing a store it could serve (R17).
        try? fd.truncate(to: 0)
        _ = try? fd.seek(to: 0)
        _ = try? fd.writeAll(Array("\(CurrentProcess.id)\n".utf8))
    }

    /// The pid in the lock file of the device whose daemon holds the store: the first
    /// `local.*/lock` in `.leitner/` that is locked. Nil when none is (the holder is still
    /// starting).
    static func holder(among shared: FileDescriptor) -> Int32? {
        for entry in (try? FileSystem.list(shared)) ?? [] where entry.name.hasPrefix("local.") {
            guard let directory = try? FileDescriptor.openDirectory(entry.name, relativeTo: shared) else { continue }
            defer { directory.close() }
            guard let fd = try? FileDescriptor.open("lock", relativeTo: directory, .readOnly, options: [.noFollow]) else { continue }
            defer { fd.close() }
            if (try? fd.tryLockExclusive()) == false {
                let text = (try? fd.readAll(limit: 64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                return Int32(text.split(separator: "\n").first ?? "")
            }
        }
        return nil
    }

    /// Releases the lock (closing the descriptor releases the `flock`).
    func release() {
        try? fd.truncate(to: 0)
        fd.close()
    }
}
