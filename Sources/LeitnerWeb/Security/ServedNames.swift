/// The names a request's `Host` may give (docs/web.md, "Who may use it"): the loopback names,
/// the address listened on (every interface's address when that is a wildcard), and the names of
/// `[Web] ServerName=`. A page of another name that reaches this server — a DNS rebinding, a
/// stranger's proxy — is refused before anything else, so no cookie of this box is ever used
/// under another site's name.
public struct ServedNames: Sendable, Equatable {
    /// Lower case, without a port or brackets, without a final dot.
    public private(set) var names: Set<String>

    public static let loopback: Set<String> = ["localhost", "127.0.0.1", "::1"]

    public init(_ names: [String] = []) {
        self.names = Self.loopback.union(names.map(Self.normalize))
    }

    public func serves(_ host: String) -> Bool {
        guard let name = Self.hostPart(host) else { return false }
        return names.contains(name)
    }

    /// The host of a `Host` value (`name`, `name:port`, `[v6]:port`), normalized; nil when it is
    /// not one.
    static func hostPart(_ host: String) -> String? {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return normalize(String(host[host.index(after: host.startIndex)..<close]))
        }
        let pieces = host.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !pieces[0].isEmpty else { return nil }
        if pieces.count == 2, pieces[1].isEmpty || !pieces[1].allSatisfy(\.isNumber) { return nil }
        return normalize(String(pieces[0]))
    }

    static func normalize(_ name: String) -> String {
        var lower = name.lowercased()
        if lower.hasPrefix("["), lower.hasSuffix("]") { lower = String(lower.dropFirst().dropLast()) }
        while lower.hasSuffix(".") { lower.removeLast() }
        return lower
    }

    /// Whether a POST comes from this site. `Sec-Fetch-Site`, when the browser sends it, decides:
    /// `same-origin`, or `none` (typed or bookmarked). Else `Origin`, when sent, must be the address
    /// the request was sent to (the scheme's default port left out). `Origin: null` is what a
    /// browser sends for our own forms under `Referrer-Policy: no-referrer`, so it says nothing
    /// either way; the CSRF token and the `SameSite=Strict` cookie still stand. Another port of the
    /// same host is another site here: it could be any program of this machine.
    public static func sameSite(origin: String?, fetchSite: String?, host: String?) -> Bool {
        if let site = fetchSite?.lowercased() { return site == "same-origin" || site == "none" }
        guard let origin = origin?.lowercased(), origin != "null" else { return true }
        guard let host = host?.lowercased() else { return false }
        for (scheme, port) in [("http://", ":80"), ("https://", ":443")] where origin.hasPrefix(scheme) {
            let authority = String(origin.dropFirst(scheme.count))
            let bare = host.hasSuffix(port) ? String(host.dropLast(port.count)) : host
            return authority == host || authority == bare
        }
        return false  // another scheme
    }
}
