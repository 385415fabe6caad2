import LeitnerSystem
/// Reads `leitner.conf`, the systemd-style format: `[Section]` headers, `Key=Value` lines,
/// `#` and `;` comment lines and blank lines; white space around keys and values is removed.
/// An unknown section or key, a key outside a section, a line without `=`, or a bad value is an
/// error `FILE:LINE: message`. A key given twice: the last one wins.
public struct ConfigurationParser: Sendable {
    /// The file's path, named in errors.
    public var path: String
    /// The home directory that `~/` in `Path=` and `Socket=` stands for.
    public var home: String

    /// A parser for the file at `path`.
    public init(path: String, home: String) {
        self.path = path
        self.home = home
    }

    /// Sets the values the text gives in `configuration`, leaving the others as they are.
    /// - Parameters:
    ///   - text: the file's content.
    ///   - configuration: the values to change: the defaults, when reading the one file.
    /// - Throws: `ConfigurationError.invalidLine` at the first wrong line; `configuration` is
    ///   then partly changed.
    public func parse(_ text: String, into configuration: inout Configuration) throws(ConfigurationError) {
        var section: String?
        for (index, rawLine) in text.lines.enumerated() {
            let line = rawLine.trimmingBlanks
            func fail(_ message: String) -> ConfigurationError {
                .invalidLine(path: path, line: index + 1, message: message)
            }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw fail("malformed section header '\(line)'") }
                let name = String(line.dropFirst().dropLast())
                guard ConfigurationParser.keys[name] != nil else {
                    throw fail("unknown section [\(name)]" + ConfigurationParser.hint(section: name))
                }
                section = name
                continue
            }
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                throw fail("expected '[Section]', 'Key=Value' or a comment, got '\(line)'")
            }
            let key = String(line[..<equals].trimmingBlanks)
            let value = String(line[line.index(after: equals)...].trimmingBlanks)
            guard let section else { throw fail("key '\(key)' outside of any section") }
            guard let apply = ConfigurationParser.keys[section]?[key] else {
                throw fail("unknown key '\(key)' in section [\(section)]" + ConfigurationParser.hint(key: key, in: section))
            }
            do {
                try apply(&configuration, value, home)
            } catch {
                throw fail("invalid value '\(value)' for \(key)=: \(error.reason)")
            }
        }
    }

    /// What to say after "unknown section [NAME]": the nearest section's name, if one is near.
    static func hint(section name: String) -> String {
        Suggestion.nearest(to: name, among: keys.keys.sorted()).map { ", did you mean [\($0)]?" } ?? ""
    }

    /// What to say after "unknown key 'KEY' in section [SECTION]": the section the key belongs
    /// in when it is another's, else the nearest key of this section, if one is near.
    static func hint(key: String, in section: String) -> String {
        if let home = keys.keys.sorted().first(where: { keys[$0]?[key] != nil }) {
            return ": \(key)= belongs in section [\(home)]"
        }
        let known = keys[section]?.keys.sorted() ?? []
        return Suggestion.nearest(to: key, among: known).map { ", did you mean '\($0)'?" } ?? ""
    }

    /// Sets one key's value; `home` is for paths.
    typealias Setter = @Sendable (inout Configuration, String, String) throws(ConfigurationValueError) -> Void

    /// Every key of every section (`docs/configuration.md`, `config/leitner.conf`).
    static let keys: [String: [String: Setter]] = [
        "Store": [
            "Path": { c, v, home throws(ConfigurationValueError) in c.storePath = try ConfigurationValue.path(v, home: home) },
        ],
        "Daemon": [
            "Socket": { c, v, home throws(ConfigurationValueError) in c.socketPath = try ConfigurationValue.path(v, home: home) },
            "SocketMode": { c, v, _ throws(ConfigurationValueError) in c.socketMode = try ConfigurationValue.octalMode(v) },
            "AllowGroup": { c, v, _ throws(ConfigurationValueError) in
                c.allowGroup = v.isEmpty ? nil : try ConfigurationValue.group(v)
            },
            "MaxMessageSize": { c, v, _ throws(ConfigurationValueError) in
                c.maxMessageSize = try ConfigurationValue.size(v, minimum: 1024)
            },
            "MaxConnections": { c, v, _ throws(ConfigurationValueError) in
                c.maxConnections = try ConfigurationValue.count(v, minimum: 1)
            },
            "SearchSteps": { c, v, _ throws(ConfigurationValueError) in
                c.searchSteps = try ConfigurationValue.count(v, minimum: 1000)
            },
            "WatchLimit": { c, v, _ throws(ConfigurationValueError) in
                c.watchLimit = v.isEmpty ? nil : try ConfigurationValue.count(v, minimum: 0)
            },
            "IdleTimeout": { c, v, _ throws(ConfigurationValueError) in
                let span = try ConfigurationValue.timeSpan(v)
                guard span > .zero else { throw ConfigurationValueError("must be longer than 0") }
                c.idleTimeout = span
            },
            "ExitIdleAfter": { c, v, _ throws(ConfigurationValueError) in
                // Empty is the default, as in systemd's files; `0` is never.
                c.exitIdleAfter = v.isEmpty ? nil : try ConfigurationValue.timeSpan(v)
            },
        ],
        "Schedule": [
            "DayStartsAt": { c, v, _ throws(ConfigurationValueError) in c.dayStartsAt = try ConfigurationValue.timeOfDay(v) },
            "OnFail": { c, v, _ throws(ConfigurationValueError) in c.onFail = try ConfigurationValue.onFail(v) },
            "Cycle": { c, v, _ throws(ConfigurationValueError) in c.cycle = try ConfigurationValue.cycle(v) },
            "NewPerDay": { c, v, _ throws(ConfigurationValueError) in c.newPerDay = try ConfigurationValue.newPerDay(v) },
            "LeechAfter": { c, v, _ throws(ConfigurationValueError) in c.leechAfter = try ConfigurationValue.count(v, minimum: 0) },
            "SuspendLeeches": { c, v, _ throws(ConfigurationValueError) in c.suspendLeeches = try ConfigurationValue.boolean(v) },
        ],
        "Hooks": [
            "TestReady": { c, v, _ in c.testReady = ConfigurationValue.command(v) },
        ],
        "Sync": [
            "Device": { c, v, _ throws(ConfigurationValueError) in
                if v.isEmpty {
                    c.device = nil
                } else if let problem = DeviceID.problem(v) {
                    throw ConfigurationValueError(problem)
                } else {
                    c.device = v
                }
            },
            "SettleAfter": { c, v, _ throws(ConfigurationValueError) in
                let span = try ConfigurationValue.timeSpan(v)
                guard span > .zero else { throw ConfigurationValueError("must be longer than 0") }
                c.settleAfter = span
            },
        ],
        "Client": [
            "Autostart": { c, v, _ throws(ConfigurationValueError) in c.autostart = try ConfigurationValue.boolean(v) },
            "Viewer": { c, v, _ in c.viewer = ConfigurationValue.command(v) },
            "Player": { c, v, _ in c.player = ConfigurationValue.command(v) },
            "Images": { c, v, _ throws(ConfigurationValueError) in c.images = try ConfigurationValue.images(v) },
        ],
        "Review": [
            "IgnoreAccents": { c, v, _ throws(ConfigurationValueError) in c.ignoreAccents = try ConfigurationValue.boolean(v) },
            "AutoSpeak": { c, v, _ throws(ConfigurationValueError) in
                guard let value = Configuration.AutoSpeak(rawValue: v) else { throw ConfigurationValueError("expected no, front, back or both") }
                c.autoSpeak = value
            },
        ],
        "Voice": [
            "Program": { c, v, _ in c.voiceProgram = ConfigurationValue.command(v) },
            "Language": { c, v, _ throws(ConfigurationValueError) in
                // A voice name goes to the program as one argument: no space, no option.
                guard !v.contains(" "), !v.hasPrefix("-") else { throw ConfigurationValueError("expected a voice such as de, en-gb or ja") }
                c.voiceLanguage = v.isEmpty ? nil : v
            },
        ],
        "Web": WebSettings.keys,
    ]
}
