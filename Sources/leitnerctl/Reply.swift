import LeitnerProtocol

/// Reading the daemon's replies: the members of the interface's types (docs/protocol.md) by name.
/// A reply missing a member reads as empty rather than failing, so that an older or newer
/// daemon still prints something useful.
extension JSONValue {
    /// The string member `key`, or "".
    func string(_ key: String) -> String { self[key]?.stringValue ?? "" }

    /// The integer member `key`, or 0.
    func int(_ key: String) -> Int { self[key]?.intValue ?? 0 }

    /// The array member `key`, or [].
    func array(_ key: String) -> [JSONValue] { self[key]?.arrayValue ?? [] }

    /// The array of strings `key` (a test's levels), or [].
    func strings(_ key: String) -> [String] { array(key).compactMap(\.stringValue) }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The member `key` as a value (`.null` when missing).
    func value(_ key: String) -> JSONValue { self[key] ?? .null }
}
