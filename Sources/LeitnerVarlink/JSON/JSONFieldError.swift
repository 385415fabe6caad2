/// A JSON value that does not have the shape a type of `io.leitner.Box` needs: `field` is the
/// dotted path of the member (`card.front.mediaType`, `days.3.state`), `reason` what is wrong.
public struct JSONFieldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The dotted path of the member, from the reply's parameters.
    public var field: String
    /// What is wrong: "is missing", "is not a string but an integer", "'8' is not a level".
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// The top-level member the error is in (`card` for `card.front.path`): the parameter an
    /// `org.varlink.service.InvalidParameter` reply names.
    public var parameter: String { String(field.prefix { $0 != "." }) }

    public var description: String { "field '\(field)' \(reason)" }
}
