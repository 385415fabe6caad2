/// The interface `org.varlink.service` every Varlink service implements, as data: its IDL
/// text, and the names of its errors that the daemon answers with.
public enum VarlinkServiceInterface {
    /// The interface name.
    public static let name = "org.varlink.service"

    /// The IDL text read: what the daemon checks each call's parameters against.
    public static let declaration = VarlinkInterfaceDescription.builtIn(description, name: name)

    /// The IDL text of `org.varlink.service`, with its doc comments.
    public static let description = """
        # The interface every Varlink service provides: what the service is, and the
        # descriptions of the interfaces it implements.
        interface org.varlink.service

        # The service's vendor, product, version and URL, and the names of its interfaces.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # The IDL text of one of the service's interfaces.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The service has no interface of this name.
        error InterfaceNotFound (interface: string)

        # The interface has no method of this name.
        error MethodNotFound (method: string)

        # The interface declares the method, but the service does not implement it.
        error MethodNotImplemented (method: string)

        # A parameter is missing, of the wrong type, or has a value the method refuses.
        error InvalidParameter (parameter: string)

        # The caller may not call this method.
        error PermissionDenied ()

        # The method must be called with 'more' set.
        error ExpectedMore ()

        """

    /// The qualified names of the errors above.
    public static let interfaceNotFound = "org.varlink.service.InterfaceNotFound"
    public static let methodNotFound = "org.varlink.service.MethodNotFound"
    public static let methodNotImplemented = "org.varlink.service.MethodNotImplemented"
    public static let invalidParameter = "org.varlink.service.InvalidParameter"
    public static let permissionDenied = "org.varlink.service.PermissionDenied"
    public static let expectedMore = "org.varlink.service.ExpectedMore"

    /// The `parameter` of the `InvalidParameter` a service answers a message longer than it
    /// takes with (the message itself is refused, not one of its parameters).
    public static let messageParameter = "message"
}
