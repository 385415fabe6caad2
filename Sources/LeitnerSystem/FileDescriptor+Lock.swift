import Glibc

extension FileDescriptor {
    /// Takes an exclusive `flock`, waiting for another holder to release it.
    public func lockExclusive() throws(Errno) { try nothingOrErrno { flock(rawValue, LOCK_EX) } }

    /// Releases a `flock`.
    public func unlock() throws(Errno) { try nothingOrErrno { flock(rawValue, LOCK_UN) } }
}
