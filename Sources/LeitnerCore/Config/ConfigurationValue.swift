/// Parsers of the values of the configuration keys (see `docs/configuration.md`). Each takes
/// the value with the white space around it removed and throws the reason it is wrong.
enum ConfigurationValue {
    /// A directory or file: absolute, or `~` / `~/…` under `home`.
    static func path(_ value: String, home: String) throws(ConfigurationValueError) -> String {
        if value == "~" { return home }
        if value.hasPrefix("~/") { return (home.hasSuffix("/") ? String(home.dropLast()) : home) + value.dropFirst() }
        guard value.hasPrefix("/") else {
            throw ConfigurationValueError("expected an absolute path or one starting with '~/'")
        }
        return value
    }

    /// An octal file mode: `0600`, `660`; at most `07777`.
    static func octalMode(_ value: String) throws(ConfigurationValueError) -> UInt32 {
        let digits = Array(value.utf8)
        guard (1...4).contains(digits.count),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) })
        else { throw ConfigurationValueError("expected an octal mode such as 0600") }
        return digits.reduce(0) { $0 * 8 + UInt32($1 - UInt8(ascii: "0")) }
    }

    /// A whole number of at least `minimum`.
    static func count(_ value: String, minimum: Int) throws(ConfigurationValueError) -> Int {
        guard let number = decimal(value.utf8[...]), number >= minimum else {
            throw ConfigurationValueError("expected a whole number of at least \(minimum)")
        }
        return number
    }

    /// A size in bytes with an optional suffix `K`, `M` or `G` (1024-based), of at least `minimum`.
    static func size(_ value: String, minimum: Int) throws(ConfigurationValueError) -> Int {
        let expected = ConfigurationValueError("expected a size in bytes, with an optional K, M or G suffix")
        var digits = value.utf8[...]
        var shift = 0
        switch digits.last {
        case UInt8(ascii: "K"): shift = 10
        case UInt8(ascii: "M"): shift = 20
        case UInt8(ascii: "G"): shift = 30
        default: break
        }
        if shift > 0 { digits = digits.dropLast() }
        guard let number = decimal(digits) else { throw expected }
        guard number <= Int.max >> shift else { throw ConfigurationValueError("size too large") }
        guard number << shift >= minimum else {
            throw ConfigurationValueError("must be at least \(minimum) bytes")
        }
        return number << shift
    }

    /// A time span as systemd writes them: `30s`, `2min`, `1h 30min`, `500ms`, `1.5h`, `2 days`;
    /// a bare number, alone, is seconds.
    static func timeSpan(_ value: String) throws(ConfigurationValueError) -> Duration {
        let expected = ConfigurationValueError("expected a time span such as 30s, 2min, 1h or 500ms")
        var bytes = value.utf8[...]
        var microseconds: Int64 = 0
        var parts = 0
        while true {
            bytes = bytes.drop(while: { $0 == UInt8(ascii: " ") })
            if bytes.isEmpty { break }
            let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            let whole = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(whole.count)
            var fraction = bytes.prefix(0)
            if bytes.first == UInt8(ascii: ".") {
                fraction = bytes.dropFirst().prefix(while: isDigit)
                bytes = bytes.dropFirst(1 + fraction.count)
            }
            bytes = bytes.drop(while: { $0 == UInt8(ascii: " ") })
            let unitName = bytes.prefix(while: { !isDigit($0) && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ".") })
            bytes = bytes.dropFirst(unitName.count)
            guard !(whole.isEmpty && fraction.isEmpty), let integer = decimal(whole.isEmpty ? "0".utf8[...] : whole)
            else { throw expected }
            let unit: Int64
            if unitName.isEmpty {
                // A bare number is seconds, and only as the whole value.
                guard parts == 0, bytes.allSatisfy({ $0 == UInt8(ascii: " ") }) else { throw expected }
                unit = 1_000_000
            } else {
                guard let known = timeUnits[String(decoding: unitName, as: UTF8.self)] else { throw expected }
                unit = known
            }
            var fractionValue: Int64 = 0
            var scale: Int64 = 1
            for digit in fraction.prefix(6) {
                fractionValue = fractionValue * 10 + Int64(digit - UInt8(ascii: "0"))
                scale *= 10
            }
            let (product, overflow) = Int64(integer).multipliedReportingOverflow(by: unit)
            guard !overflow, product <= Int64.max - microseconds - unit else {
                throw ConfigurationValueError("time span too long")
            }
            microseconds += product + fractionValue * unit / scale
            parts += 1
        }
        guard parts > 0 else { throw expected }
        return .microseconds(microseconds)
    }

    /// Units of a time span, in microseconds.
    private static let timeUnits: [String: Int64] = {
        var units: [String: Int64] = [:]
        let names: [(Int64, [String])] = [
            (1, ["us", "usec"]),
            (1000, ["ms", "msec"]),
            (1_000_000, ["s", "sec", "second", "seconds"]),
            (60_000_000, ["m", "min", "minute", "minutes"]),
            (3_600_000_000, ["h", "hr", "hour", "hours"]),
            (86_400_000_000, ["d", "day", "days"]),
            (604_800_000_000, ["w", "week", "weeks"]),
        ]
        for (value, words) in names { for word in words { units[word] = value } }
        return units
    }()

    /// `yes/no/true/false/on/off/1/0`, any case.
    static func boolean(_ value: String) throws(ConfigurationValueError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw ConfigurationValueError("expected yes, no, true, false, on, off, 1 or 0")
        }
    }

    /// `HH:MM` from `00:00` to `23:59`, as minutes after midnight (`H:MM` is taken too).
    static func timeOfDay(_ value: String) throws(ConfigurationValueError) -> Int {
        let expected = ConfigurationValueError("expected HH:MM, from 00:00 to 23:59")
        let parts = value.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hours = decimal(parts[0]), hours < 24,
              let minutes = decimal(parts[1]), minutes < 60
        else { throw expected }
        return hours * 60 + minutes
    }

    /// `all` (nil: no pacing, R1) or a whole number of cards a day, 0 included (R23: new cards
    /// then wait until the number is raised).
    static func newPerDay(_ value: String) throws(ConfigurationValueError) -> Int? {
        if value == "all" { return nil }
        guard let number = decimal(value.utf8[...]), number >= 0 else {
            throw ConfigurationValueError("expected 'all' or a whole number of cards a day (0 or more)")
        }
        return number
    }

    /// `first` or `previous` (R9).
    static func onFail(_ value: String) throws(ConfigurationValueError) -> OnFailPolicy {
        guard let policy = OnFailPolicy(rawValue: value) else {
            throw ConfigurationValueError("expected 'first' or 'previous'")
        }
        return policy
    }

    /// How images are drawn: `auto` or a protocol's name.
    static func images(_ value: String) throws(ConfigurationValueError) -> String {
        guard value == "auto" || Configuration.imageProtocols.contains(value) else {
            throw ConfigurationValueError("expected auto, " + Configuration.imageProtocols.joined(separator: ", "))
        }
        return value
    }

    /// A cycle table in the inline form of R3.
    static func cycle(_ value: String) throws(ConfigurationValueError) -> CycleTable {
        do {
            return try CycleTable(parsing: value)
        } catch {
            throw ConfigurationValueError(error.description)
        }
    }

    /// A group name or a numeric gid.
    static func group(_ value: String) throws(ConfigurationValueError) -> GroupSelector {
        if let gid = decimal(value.utf8[...]), gid < Int(UInt32.max) { return .id(UInt32(gid)) }
        let bytes = Array(value.utf8)
        let allowed: (UInt8) -> Bool = { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard (1...32).contains(bytes.count), bytes.allSatisfy(allowed), bytes[0] != UInt8(ascii: "-"),
              !bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw ConfigurationValueError("expected a group name or a numeric gid") }
        return .name(value)
    }

    /// A command; empty means none.
    static func command(_ value: String) -> String? {
        value.isEmpty ? nil : value
    }

    /// The value of a string of decimal digits; nil for anything else or on overflow.
    static func decimal(_ digits: Substring.UTF8View.SubSequence) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflowA || overflowB { return nil }
            value = sum
        }
        return value
    }
}
