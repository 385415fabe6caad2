import Glibc

extension Socket.InternetAddress {
    /// Reads `HOST:PORT` as `Listen=` and `--listen` write it: a numeric IPv4 address, or an IPv6
    /// one in brackets (`[::1]:8470`), and a port from 0 to 65535 (0: the kernel picks a free one).
    /// - Returns: nil, with `reason` saying why, when the text is not such an address.
    public static func parse(_ text: String) -> (address: Socket.InternetAddress?, reason: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return (nil, "expected [IPv6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return (nil, "expected ADDRESS:PORT, such as 127.0.0.1:8470") }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return (nil, "an IPv6 address goes in brackets: [::1]:8470") }
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), port <= 65535 else {
            return (nil, "the port must be a number from 0 to 65535")
        }
        let address = Socket.InternetAddress(host: String(host), port: UInt16(port))
        guard address.numeric != nil else {
            return (nil, "'\(host)' is not a numeric IP address (no host names: nothing is looked up)")
        }
        return (address, "")
    }

    /// True for an address only this machine reaches: `127.0.0.0/8` and `::1`.
    public var isLoopback: Bool {
        guard let bytes = numeric else { return false }
        if isIPv6 { return bytes == [UInt8](repeating: 0, count: 15) + [1] }
        return bytes.first == 127
    }

    /// True for `0.0.0.0` and `::`: every address of this machine (of the family), none by itself.
    public var isWildcard: Bool {
        numeric?.allSatisfy { $0 == 0 } ?? false
    }

    /// The address's bytes in network order, nil when `host` is not a numeric address.
    var numeric: [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let family = isIPv6 ? AF_INET6 : AF_INET
        guard inet_pton(family, host, &buffer) == 1 else { return nil }
        return Array(buffer.prefix(isIPv6 ? 16 : 4))
    }
}
