import LeitnerCore

/// The daemon's errors and connection failures as leitnerctl reports them.
enum DaemonErrors {
    /// One line saying what went wrong.
    static func message(for error: any Error) -> String {
        if let call = error as? VarlinkCallError { return message(call) }
        if let client = error as? VarlinkClientError { return client.description }
        return String(describing: error)
    }

    /// The exit status for an error that is not a `Failure`: 69 when the daemon went away, else 1.
    static func exitStatus(for error: any Error) -> Int32 {
        if error is VarlinkClientError { return Failure.Status.unavailable }
        if let call = error as? VarlinkCallError,
           call.name == BoxInterface.tooManyConnections || call.name == BoxInterface.connectionClosed {
            return Failure.Status.unavailable
        }
        return Failure.Status.failure
    }

    static func message(_ error: VarlinkCallError) -> String {
        func parameter(_ name: String) -> String { error.parameters[name]?.stringValue ?? "?" }
        switch error.name {
        case "io.leitner.Box.NoSuchCard": return "no card '\(parameter("id"))'"
        case "io.leitner.Box.InvalidCardId": return "invalid card id '\(parameter("id"))': \(parameter("reason"))"
        case "io.leitner.Box.InvalidLevel": return "invalid level '\(parameter("level"))': expected 1 to 7 or finished"
        case "io.leitner.Box.CardExists": return "card '\(parameter("id"))' already exists"
        case "io.leitner.Box.DuplicateFront":
            return "card '\(parameter("id"))' has the same front (add --force to add it anyway)"
        case "io.leitner.Box.NotInTest": return "card '\(parameter("id"))' is not in today's test"
        case "io.leitner.Box.TestComplete": return "today's test is complete"
        case "io.leitner.Box.NothingToUndo": return "nothing to undo today"
        case "io.leitner.Box.InvalidAsset": return "invalid asset '\(parameter("name"))': \(parameter("reason"))"
        case "io.leitner.Box.StoreFailure": return storeFailure(path: parameter("path"), reason: parameter("reason"))
        case BoxInterface.tooManyConnections:
            return "the daemon is serving as many connections as it may (MaxConnections=\(error.parameters["limit"]?.intValue.map(String.init) ?? "?")), none idle: try again later"
        case BoxInterface.connectionClosed: return "the daemon closed the connection: \(parameter("reason"))"
        case "org.varlink.service.InvalidParameter":
            return "the daemon refused parameter '\(parameter("parameter"))'"
        case "org.varlink.service.MethodNotFound":
            return "the daemon does not know method '\(parameter("method"))' (an older leitnerd?)"
        default: return error.description
        }
    }

    /// A store failure in plain words: what it means for the person first, then the path and the
    /// system's reason. A failed request changed nothing (docs/rules.md, R16 and R17).
    static func storeFailure(path: String, reason: String) -> String {
        let detail = "'\(path)': \(reason)"
        if reason.contains("Read-only file system") {
            return "the store is read-only: nothing was changed (\(detail))"
        }
        if reason.contains("No space left on device") || reason.contains("Disk quota exceeded") {
            return "the store's disk is full: nothing was changed (\(detail))"
        }
        if reason.contains("Permission denied") || reason.contains("Operation not permitted") {
            return "no permission to change the store: nothing was changed (\(detail))"
        }
        return "the store failed: \(detail)"
    }
}
