/// Another process holds the store's lock (R19).
public struct StoreLockedError: Error, CustomStringConvertible, Sendable {
    public var storePath: String
    public var pid: Int32?

    public var description: String {
        if let pid { return "store '\(storePath)' is in use by process \(pid)" }
        return "store '\(storePath)' is in use by another process"
    }
}
