/// The standard errors of `org.varlink.service` (`VarlinkServiceInterface`) as a client reads
/// them: each error's parameter read here, once, rather than by name where it is reported.
public enum VarlinkServiceError: Equatable, Sendable {
    case interfaceNotFound(interface: String?)
    case methodNotFound(method: String?)
    case methodNotImplemented(method: String?)
    case invalidParameter(parameter: String?)
    case permissionDenied
    case expectedMore

    /// The standard error an error reply stands for; nil for any other error. A parameter the
    /// service left out is nil: the error is still that error.
    public init?(_ error: VarlinkCallError) {
        func text(_ key: String) -> String? { error.parameters[key]?.stringValue }
        switch error.name {
        case VarlinkServiceInterface.interfaceNotFound: self = .interfaceNotFound(interface: text("interface"))
        case VarlinkServiceInterface.methodNotFound: self = .methodNotFound(method: text("method"))
        case VarlinkServiceInterface.methodNotImplemented: self = .methodNotImplemented(method: text("method"))
        case VarlinkServiceInterface.invalidParameter: self = .invalidParameter(parameter: text("parameter"))
        case VarlinkServiceInterface.permissionDenied: self = .permissionDenied
        case VarlinkServiceInterface.expectedMore: self = .expectedMore
        default: return nil
        }
    }
}
