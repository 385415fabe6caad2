/// A parameter of a call is missing, mistyped or not one the method takes: the daemon answers
/// `org.varlink.service.InvalidParameter` naming it (docs/protocol.md).
struct InvalidParameter: Error, Equatable {
    /// The parameter's name.
    var name: String
}
