/// What the store was doing when a system call failed: the `operation` of a `StoreFailure`. The
/// raw value is the word on the wire, so a client can tell a failed `fsync` from a failed
/// `rename` without reading the reason, which is for people.
public enum StoreOperation: String, Sendable, CaseIterable {
    case open, create, read, write, append, rename, remove, lock, watch, stat
    case sync = "fsync"
    /// Reading a directory's entries.
    case list
    /// Resolving the store's path to its real one (`realpath`).
    case resolve
    case makeDirectory = "mkdir"

    /// The words of the reason when the call site has none more precise: "cannot sync", as the
    /// reasons said before they carried the operation.
    var failed: String {
        switch self {
        case .sync: "cannot sync"
        case .list: "cannot read directory"
        case .stat: "cannot look at"
        case .makeDirectory: "cannot create directory"
        default: "cannot " + rawValue
        }
    }
}
