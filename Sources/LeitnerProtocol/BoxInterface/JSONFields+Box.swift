import LeitnerCore
import LeitnerVarlink

/// The box's own words in a message's members: levels, dates, cards and tests, read where the
/// box's types are decoded (LeitnerVarlink knows JSON and Varlink, not cards). Each names the
/// member that does not decode.
extension JSONFields {
    /// The member `key` as a level name (`1` … `7`, `finished`).
    public func level(_ key: String) throws(JSONFieldError) -> Level { try named(key, "a level") { Level(name: $0) } }

    /// The member `key` as a date, `YYYY-MM-DD`.
    public func date(_ key: String) throws(JSONFieldError) -> LogicalDate {
        try named(key, "a date (YYYY-MM-DD)") { LogicalDate($0) }
    }

    /// An array of level names.
    public func levels(_ key: String) throws(JSONFieldError) -> [Level] {
        try array(key).enumerated().map { (index, element) throws(JSONFieldError) -> Level in
            guard let name = element.stringValue, let level = Level(name: name) else {
                throw JSONFieldError(field: "\(field(key)).\(index)", reason: "is not a level")
            }
            return level
        }
    }

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
