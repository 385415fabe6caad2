import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

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
        if error is VarlinkClientError { return ExitStatus.unavailable }
        if let call = error as? VarlinkCallError, BoxConnectionError(call) != nil { return ExitStatus.unavailable }
        return ExitStatus.failure
    }

    /// The box's own errors are decoded by the protocol's one table (`BoxError(_:)`) and said as
    /// the box says them; only what a person at the terminal needs differently is spelled here.
    static func message(_ error: VarlinkCallError) -> String {
        if let boxError = BoxError(error) {
            switch boxError {
            case .duplicateFront(let id): return "card '\(id)' has the same front (add --force to add it anyway)"
            case .storeFailure(let path, let reason, let number, _): return storeFailure(path: path, reason: reason, errno: number)
            case .invalidParameter(let name, _): return "the daemon refused parameter '\(name)'"
            // "asset" and the file name the client chose (`front.txt`) are the protocol's words:
            // the person typed a front or a back.
            case .invalidAsset(let name, let reason):
                if reason.hasPrefix("the front") || reason.hasPrefix("the back") { return reason }
                let side = name.hasPrefix("back.") ? "back" : "front"
                return "the \(side) ('\(name)'): \(reason)"
            default: return boxError.description
            }
        }
        switch BoxConnectionError(error) {
        case .tooManyConnections(let limit)?:
            return "the daemon is serving as many connections as it may (MaxConnections=\(limit)), none idle: try again later"
        case .connectionClosed(let reason)?: return "the daemon closed the connection: \(reason)"
        case nil: break
        }
        switch VarlinkServiceError(error) {
        case .permissionDenied?: return "the daemon refused: only its own user and root may do that"
        case .methodNotFound(let method)?: return "the daemon does not know method '\(method ?? "?")' (an older leitnerd?)"
        default: return error.description
        }
    }

    /// A store failure in plain words: what it means for the person first, then the path and the
    /// system's reason. A failed request changed nothing (docs/rules.md, R16 and R17). What it
    /// means is decided from the errno alone; the reason is for people, and its words are the C
    /// library's, which another locale or version may say otherwise. An older daemon sends no
    /// errno: its failures are said plainly.
    static func storeFailure(path: String, reason: String, errno: Int32?) -> String {
        let detail = "'\(path)': \(reason)"
        switch errno.map(Errno.init(rawValue:)) {
        case Errno.readOnlyFileSystem?:
            return "the store is read-only: nothing was changed (\(detail))"
        case Errno.noSpace?, Errno.quotaExceeded?:
            return "the store's disk is full: nothing was changed (\(detail))"
        case Errno.permission?, Errno.notPermitted?:
            return "no permission to change the store: nothing was changed (\(detail))"
        default:
            return "the store failed: \(detail)"
        }
    }
}
