import Glibc
import LeitnerSystem
import LeitnerWeb

/// The pairing links `leitnerctl web` prints: one for each address the server is reached at,
/// and a QR code of the one a phone can open.
enum Pairing {
    /// The hosts the server is reached at when listening on `address`: the address itself, or
    /// for a wildcard the loopback address and each interface's address of its family.
    static func hosts(_ address: Socket.InternetAddress) -> [String] {
        guard address.isWildcard else { return [address.host] }
        let loopback = address.isIPv6 ? "::1" : "127.0.0.1"
        return [loopback] + Socket.interfaceAddresses(ipv6: address.isIPv6).filter { $0 != loopback }
    }

    /// The links for `code`, one per host, loopback first.
    static func links(_ address: Socket.InternetAddress, code: String) -> [String] {
        hosts(address).map { host in
            let reached = Socket.InternetAddress(host: host, port: address.port)
            return "http://\(reached)/pair/\(code)"
        }
    }

    /// Makes a pairing code and prints its links on standard output, unbuffered (leitnerctl web
    /// and the tests read it while the server runs), then the QR code of the first link that is
    /// not loopback (a phone cannot open the computer's loopback), and what to do. False, with the
    /// reason on standard error, when no code could be made.
    static func printLinks(devices: DeviceBook, address: Socket.InternetAddress) -> Bool {
        let code: String
        do {
            code = try devices.newPairingCode(now: RealTime.nanoseconds / 1_000_000_000)
        } catch {
            WebLog.error("\(error)")
            return false
        }
        let links = links(address, code: code)
        var text = links.joined(separator: "\n") + "\n"
        let minutes = DeviceBook.pairingLifetime / 60
        text += "Open a link in the browser to pair (once, within \(minutes) minutes); it is then a device until revoked (leitnerctl web --devices).\n"
        let scanned = links.first { !Socket.InternetAddress(host: hostOf($0), port: address.port).isLoopback } ?? links[0]
        text += TerminalQR.text(for: scanned, colours: isatty(1) == 1)
        try? FileDescriptor(rawValue: 1).writeAll(text.utf8)
        return true
    }

    private static func hostOf(_ link: String) -> String {
        var rest = link.dropFirst("http://".count)
        rest = rest.prefix { $0 != "/" }
        if rest.hasPrefix("[") { return String(rest.dropFirst().prefix { $0 != "]" }) }
        return String(rest.prefix { $0 != ":" })
    }
}
