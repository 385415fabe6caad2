/// Why one value is wrong, before the parser adds the file, the line and the key.
struct ConfigurationValueError: Error, Equatable {
    /// What was expected, or what is wrong: "expected HH:MM, from 00:00 to 23:59".
    var reason: String

    init(_ reason: String) { self.reason = reason }
}
