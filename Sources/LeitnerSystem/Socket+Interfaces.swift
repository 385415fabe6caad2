import Glibc

extension Socket {
    /// The numeric addresses of this machine's interfaces that are up (`getifaddrs`): IPv4 ones
    /// when `ipv6` is false, IPv6 ones (without link-local `fe80::`, which needs a zone to be
    /// reached) when true. For leitner-web listening on `0.0.0.0` or `::`, which is reached at
    /// each of them, never at the wildcard itself.
    public static func interfaceAddresses(ipv6: Bool) -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard entry.pointee.ifa_flags & UInt32(IFF_UP) != 0, let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == (ipv6 ? AF_INET6 : AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written: UnsafePointer<CChar>? = if ipv6 {
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                    var raw = inet6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            } else {
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                    var raw = inet.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
            guard written != nil else { continue }
            let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if host.hasPrefix("fe80:") || addresses.contains(host) { continue }
            addresses.append(host)
        }
        return addresses
    }
}
