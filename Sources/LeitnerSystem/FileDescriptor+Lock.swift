import Glibc

/// Advisory whole-file locks (`flock`): the store's lock (one daemon per store, R19) and the
/// lock beside the socket that lets one leitnerctl at a time start the daemon.
extension FileDescriptor {
    /// Takes an exclusive `flock` without waiting; false when another holds it.
    public func tryLockExclusive() throws(Errno) -> Bool {
        do {
            try nothingOrErrno { flock(rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch where error == .wouldBlock {
            return false
        }
    }

    /// Takes an exclusive `flock`, waiting for another holder to release it.
    public func lockExclusive() throws(Errno) { try nothingOrErrno { flock(rawValue, LOCK_EX) } }

    /// Releases a `flock`.
    public func unlock() throws(Errno) { try nothingOrErrno { flock(rawValue, LOCK_UN) } }
}
