import LeitnerClient
import LeitnerSystem

/// Why a command did not succeed, and the exit status that says so. Rendered in `main`.
enum Failure: Error {
    /// The command line is wrong (exit 64).
    case usage(UsageError)
    /// Nothing answers on the socket and `leitnerd` could not be, or may not be, started (exit 69).
    case unreachable(String)
    /// The daemon refused the request, or something else failed (exit 1).
    case failed(String)
    /// The command printed what went wrong already; exit with `status`.
    case quiet(Int32)

    var exitStatus: Int32 {
        switch self {
        case .usage: ExitStatus.usage
        case .unreachable: ExitStatus.unavailable
        case .failed: ExitStatus.failure
        case .quiet(let status): status
        }
    }
}
