/// The methods of `org.varlink.service`, each named once: the daemon's method table is keyed by
/// them and the fuzzer calls them by them, and a unit test holds the list to the interface text
/// (`VarlinkServiceInterface.description`).
public enum VarlinkServiceMethod: String, Sendable, CaseIterable {
    case getInfo = "GetInfo"
    case getInterfaceDescription = "GetInterfaceDescription"

    /// The qualified name a call carries, `org.varlink.service.GetInfo`.
    public var qualifiedName: String { VarlinkServiceInterface.name + "." + rawValue }
}
