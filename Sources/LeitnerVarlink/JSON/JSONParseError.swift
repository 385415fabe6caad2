/// Why a JSON text was refused, and where: `offset` is the byte offset in the input at which
/// the parser gave up (0-based), `reason` says what it found there.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset of the problem in the input.
    public var offset: Int
    /// What is wrong, e.g. "invalid escape '\\x'" or "unexpected end of input".
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
