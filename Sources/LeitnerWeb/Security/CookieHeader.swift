/// The session cookie: read from `Cookie:`, written as `Set-Cookie:` (RFC 6265).
public enum CookieHeader {
    /// The cookie's name. `__Host-` would pin it to HTTPS; plain HTTP on loopback needs it without.
    public static let name = "leitner_session"

    /// The value of the cookie `name` in the `Cookie:` header lines `values`; nil without it.
    public static func value(named name: String = name, in values: [String]) -> String? {
        for value in values {
            for pair in value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
    }

    /// The `Set-Cookie:` value that gives the browser `session`: not readable by a script
    /// (HttpOnly), never sent by another site's page (SameSite=Strict), for every path, and over
    /// HTTPS only when `secure`. No expiry: it lasts as long as the browser session, or until
    /// leitner-web forgets the session.
    public static func set(_ session: String, secure: Bool) -> String {
        "\(name)=\(session); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
