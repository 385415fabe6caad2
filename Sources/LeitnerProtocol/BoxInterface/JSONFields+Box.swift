import LeitnerCore
import LeitnerVarlink

/// The box's own words in a reply's members: levels and dates, read where the box's types are
/// decoded (LeitnerVarlink knows JSON and Varlink, not cards).
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
}
