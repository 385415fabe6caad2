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
    ]
}
