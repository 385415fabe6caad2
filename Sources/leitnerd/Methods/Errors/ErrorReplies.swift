import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The one place where what went wrong in a call becomes a Varlink error: a bad
/// parameter is `org.varlink.service.InvalidParameter` naming it, a `BoxError` is its
/// `io.leitner.Box` error with its parameters, and any other failure (an `Errno` the box let
/// through, say) is `io.leitner.Box.StoreFailure` naming the store and the reason.
enum ErrorReplies {
    /// Runs a handler and turns its result or its error into a reply.
    static func catching(storePath: String, _ body: () throws -> [String: JSONValue]) -> VarlinkReply {
        do {
            return VarlinkReply(parameters: try body())
        } catch {
            return reply(for: error, storePath: storePath)
        }
    }

    /// The reply for `error`.
    static func reply(for error: any Error, storePath: String) -> VarlinkReply {
        switch error {
        case let invalid as InvalidParameter:
            return .invalidParameter(invalid.name)
        case is PermissionDenied:
            return .error(VarlinkServiceInterface.permissionDenied)
        case let missing as InterfaceNotFound:
            return .interfaceNotFound(missing.interface)
        case let invalid as JSONFieldError:
            return .invalidParameter(invalid.field)
        case let boxError as BoxError:
            return boxError.varlinkReply
        default:
            let failure = BoxError.storeFailure(path: storePath, reason: "\(error)")
            return reply(for: failure, storePath: storePath)
        }
    }
}
