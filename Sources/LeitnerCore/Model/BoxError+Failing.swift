import LeitnerSystem

extension BoxError {
    /// The one way a failed system call of the store becomes an error: it names the operation,
    /// the path, and carries the call's `errno`. `doing` says what failed in words when "cannot
    /// <operation>" says too little ("cannot rename to '…'"); the reason is those words and the
    /// system's text.
    public static func failing(_ operation: StoreOperation, _ path: String, _ error: Errno, doing: String? = nil) -> BoxError {
        .storeFailure(path: path, reason: "\(doing ?? operation.failed): \(error)",
                      errno: error.rawValue, operation: operation.rawValue)
    }

    /// `failing` for an error of any type, from a step whose calls throw `Errno` or `BoxError`:
    /// an `Errno` is named as above; a `BoxError` is said in words after `doing`, as before, and
    /// keeps the errno and operation of the failure behind it.
    public static func failing(_ operation: StoreOperation, _ path: String, _ error: any Error, doing: String? = nil) -> BoxError {
        if let error = error as? Errno { return failing(operation, path, error, doing: doing) }
        let cause = systemCause(of: error)
        return .storeFailure(path: path, reason: "\(doing ?? operation.failed): \(error)",
                             errno: cause.errno, operation: cause.operation ?? operation.rawValue)
    }

    /// A failed sync of the journal at `path`, which refuses every later change until the daemon
    /// is restarted: a second `fdatasync` may succeed with the data lost, so nothing written
    /// since the last good one can be called durable (docs/daemon.md, "Group commit").
    public static func journalSyncFailed(_ path: String, _ error: Errno) -> BoxError {
        failing(.sync, path, error, doing: "cannot sync the journal, so what was written since its last sync may not be "
                + "on disk; changes are refused until the daemon is restarted once the disk is writable")
    }

    /// The errno and operation behind an error, when a failed system call caused it.
    static func systemCause(of error: any Error) -> (errno: Int32?, operation: String?) {
        switch error {
        case BoxError.storeFailure(_, _, let number, let operation): (number, operation)
        case let error as Errno: (error.rawValue, nil)
        default: (nil, nil)
        }
    }
}
