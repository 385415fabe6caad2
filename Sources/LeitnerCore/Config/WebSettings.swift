import LeitnerSystem

/// The `[Web]` section: where `leitner-web` listens and how it marks its cookie (docs/web.md).
public struct WebSettings: Sendable, Equatable {
    /// `Listen=`: a numeric address and port, loopback by default.
    public var listen = Socket.InternetAddress(host: "127.0.0.1", port: 8470)
    /// `SecureCookie=`: mark the session cookie `Secure` even when no proxy says the request came
    /// over HTTPS (`X-Forwarded-Proto: https` marks it anyway).
    public var secureCookie = false
    /// `MaxConnections=`: the most browser connections served at once.
    public var maxConnections = 32
    /// `ServerName=`: the names, besides loopback and the addresses listened on, that a request's
    /// `Host` may give — the name of a proxy in front (`leitner.example.org`, a tailnet's name).
    public var serverNames: [String] = []
    /// `AnkiConnect=`: where the AnkiConnect door listens (docs/web.md, "AnkiConnect"); nil, the
    /// default: no door.
    public var ankiConnect: Socket.InternetAddress?
    /// `AnkiConnectOrigins=`: the browser extensions' origins answered by the door
    /// (`chrome-extension://ID`, `moz-extension://UUID`); a request from any other origin is refused.
    public var ankiConnectOrigins: [String] = []

    public init() {}

    /// The setters of the `[Web]` keys, for `ConfigurationParser.keys`.
    static let keys: [String: ConfigurationParser.Setter] = [
        "Listen": { c, v, _ throws(ConfigurationValueError) in
            let parsed = Socket.InternetAddress.parse(v)
            guard let address = parsed.address else { throw ConfigurationValueError(parsed.reason) }
            c.web.listen = address
        },
        "SecureCookie": { c, v, _ throws(ConfigurationValueError) in c.web.secureCookie = try ConfigurationValue.boolean(v) },
        "MaxConnections": { c, v, _ throws(ConfigurationValueError) in c.web.maxConnections = try ConfigurationValue.count(v, minimum: 1) },
        "ServerName": { c, v, _ throws(ConfigurationValueError) in c.web.serverNames = try serverNames(v) },
        "AnkiConnect": { c, v, _ throws(ConfigurationValueError) in
            // Empty is the default, off, as in systemd's files.
            guard !v.isEmpty else {
                c.web.ankiConnect = nil
                return
            }
            let parsed = Socket.InternetAddress.parse(v)
            guard let address = parsed.address else { throw ConfigurationValueError(parsed.reason) }
            c.web.ankiConnect = address
        },
        "AnkiConnectOrigins": { c, v, _ throws(ConfigurationValueError) in c.web.ankiConnectOrigins = try origins(v) },
    ]

    /// The origins of `AnkiConnectOrigins=`, separated by spaces or commas: each a scheme and a
    /// host (`chrome-extension://ID`), exactly as a browser sends it in `Origin`, with no path.
    /// `*` is refused: the door answers the listed extensions, never every page.
    static func origins(_ value: String) throws(ConfigurationValueError) -> [String] {
        let origins = value.split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
        for origin in origins {
            let parts = origin.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[1].contains("/") else {
                throw ConfigurationValueError("'\(origin)' is not an origin: write it as the browser sends it, 'chrome-extension://ID' or 'moz-extension://UUID', without a path")
            }
        }
        return origins
    }

    /// The names of `ServerName=`, separated by spaces or commas: host names (letters, digits,
    /// `-` and `.`) or numeric addresses, without a scheme, a port or a path.
    static func serverNames(_ value: String) throws(ConfigurationValueError) -> [String] {
        let names = value.split { $0 == " " || $0 == "," || $0 == "\t" }.map { String($0).lowercased() }
        for name in names {
            let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-.:[]".unicodeScalars.contains($0) }
            if !allowed || name.hasPrefix(".") || name.hasPrefix("-") {
                throw ConfigurationValueError("'\(name)' is not a host name (letters, digits, '-' and '.') nor an address; write names without a scheme, port or path")
            }
        }
        return names
    }
}
