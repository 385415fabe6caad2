/// The device's cookie: read from `Cookie:`, written as `Set-Cookie:` (RFC 6265).
public struct CookieHeader: Sendable, Equatable {
    /// `leitner_BOX_PORT` (`default` for the default box): a browser keeps cookies per host, not
    /// per port, so two boxes served on two ports of one host, or any other program on another
    /// port, would otherwise overwrite each other's cookie. Over HTTPS it is `__Host-…`: a cookie
    /// that only this origin over HTTPS can set, which no plain-HTTP page of the host can shadow.
    public let plainName: String
    /// How long a device's cookie lasts without being used: 400 days, the longest Chromium keeps
    /// one. It is sent again with each page, so a device used now and then never expires.
    public static let maxAge = 400 * 86_400

    public init(box: String?, port: UInt16) {
        plainName = "leitner_\(box ?? "default")_\(port)"
    }

    public func name(secure: Bool) -> String {
        secure ? "__Host-" + plainName : plainName
    }

    /// Every value of the cookie `name` in the `Cookie:` header lines `values`, in order: another
    /// program of the host may have set one more with the same name (for a narrower path), so the
    /// server tries each.
    public static func values(named name: String, in values: [String]) -> [String] {
        var found: [String] = []
        for value in values {
            for pair in value.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { found.append(String(trimmed[trimmed.index(after: equals)...])) }
            }
        }
        return found
    }

    /// The `Set-Cookie:` value that gives the browser `secret`: not readable by a script
    /// (HttpOnly), never sent by another site's page (SameSite=Strict), for every path, lasting
    /// `maxAge`, and over HTTPS only when `secure`.
    public func set(_ secret: String, secure: Bool) -> String {
        "\(name(secure: secure))=\(secret); Path=/; Max-Age=\(Self.maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie:` value that clears it.
    public func clear(secure: Bool) -> String {
        "\(name(secure: secure))=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}
