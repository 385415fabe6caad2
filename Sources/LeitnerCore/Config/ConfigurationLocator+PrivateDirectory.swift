import LeitnerSystem

extension ConfigurationLocator {
    /// Makes sure `path` is a directory that only this user controls, creating it with mode
    /// 0700 when `create` is true and it is missing: the rule for `/tmp/leitner-UID`, where
    /// another user could otherwise put a socket of theirs. A directory of the user's that others
    /// may enter is closed to them (mode 0700).
    /// - Parameters:
    ///   - path: the directory, usually `fallbackSocketDirectory`.
    ///   - create: true for the daemon; a client only checks.
    /// - Throws: `ConfigurationError.cannotUseDirectory` when it is not a directory (a symbolic
    ///   link included), another user owns it, or it cannot be created or read.
    public func preparePrivateDirectory(_ path: String, create: Bool) throws(ConfigurationError) {
        if create {
            do {
                try FileSystem.makeDirectory(path, in: nil, mode: 0o700, existingOK: true)
            } catch where error == .notDirectory {
                throw .cannotUseDirectory(path: path, reason: "not a directory")
            } catch {
                throw .cannotUseDirectory(path: path, reason: error.description)
            }
        }
        let status: FileStatus
        do {
            status = try FileSystem.status(path, in: nil)
        } catch {
            throw .cannotUseDirectory(path: path, reason: error.description)
        }
        guard status.isDirectory else {
            throw .cannotUseDirectory(path: path, reason: "not a directory")
        }
        guard status.st_uid == uid else {
            throw .cannotUseDirectory(path: path, reason: "owned by uid \(status.st_uid), not \(uid)")
        }
        if status.st_mode & 0o077 != 0 {
            do {
                try FileSystem.changeMode(path, in: nil, to: 0o700)
            } catch {
                throw .cannotUseDirectory(path: path, reason: error.description)
            }
        }
    }
}
