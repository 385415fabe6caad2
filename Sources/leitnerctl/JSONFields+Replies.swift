import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The members of the daemon's replies as the interface's types (docs/protocol.md), for
/// `Context.call(_:_:as:)`: each names the member that does not decode.
extension JSONFields {
    /// The `Card` member `key`.
    func card(_ key: String = "card") throws(JSONFieldError) -> Card {
        try Card(json: required(key), field: field(key))
    }

    /// The nullable `Card` member `key` (`Next` has none when the test is done).
    func optionalCard(_ key: String = "card") throws(JSONFieldError) -> Card? {
        guard let value = optional(key), !value.isNull else { return nil }
        return try Card(json: value, field: field(key))
    }

    /// The `Test` member `key`.
    func test(_ key: String = "test") throws(JSONFieldError) -> TestSummary {
        try TestSummary(json: required(key), field: field(key))
    }

    /// The reply's parameters as an `Asset` (`ReadAsset`: `name` and `data`, base64).
    func asset() throws(JSONFieldError) -> Asset {
        try Asset(json: .object(members), field: path)
    }

    /// The array of strings `key` (the paths `ResolveConflict` kept and removed).
    func strings(_ key: String) throws(JSONFieldError) -> [String] {
        try array(key).enumerated().map { (index, element) throws(JSONFieldError) -> String in
            guard let string = element.stringValue else {
                throw JSONFieldError(field: "\(field(key)).\(index)", reason: "is not a string")
            }
            return string
        }
    }
}
