import Glibc
import LeitnerCore
import LeitnerSystem

/// The box's web token: 256 random bits in hexadecimal, kept in one file of the user's state
/// directory with mode 0600 (its directory 0700), made at the first start.
enum TokenFile {
    /// The default box's token is `web-token` in the state directory; box NAME's is
    /// `NAME.web-token` beside it, as its `NAME.conf` and `NAME.sock` sit beside the default
    /// box's files. Each box has its own, so a link to one box opens no other (a box may be
    /// shared with someone who should not see the others).
    static func path(_ locator: ConfigurationLocator) -> String {
        let standard = locator.webTokenPath
        guard let box = locator.box, let slash = standard.lastIndex(of: "/") else { return standard }
        return String(standard[...slash]) + box + ".web-token"
    }

    struct TokenError: Error, CustomStringConvertible {
        var description: String
    }

    /// The token at `path`; made (or replaced, when `renew`) first when there is none.
    static func load(_ path: String, renew: Bool) throws(TokenError) -> String {
        guard !renew else { return try make(path) }
        let st: stat
        do throws(Errno) {
            st = try FileSystem.status(path, in: nil)
        } catch where error == .noEntry {
            return try make(path)  // the first start
        } catch {
            throw TokenError(description: "cannot read the token '\(path)': \(error)")
        }
        if st.st_mode & 0o077 != 0 {
            throw TokenError(description: "'\(path)' may be read by other users (mode \(String(st.st_mode & 0o777, radix: 8))): 'chmod 600' it, or make a new token with --new-token")
        }
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileSystem.readFile(atPath: path, limit: 4096)
        } catch {
            throw TokenError(description: "cannot read the token '\(path)': \(error)")
        }
        let token = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard token.utf8.count == 64, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw TokenError(description: "'\(path)' does not hold a token (64 hexadecimal digits): make a new one with --new-token")
        }
        return token
    }

    private static func make(_ path: String) throws(TokenError) -> String {
        let slash = path.lastIndex(of: "/")!
        let directory = String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        do throws(Errno) {
            var made = ""
            for component in directory.split(separator: "/") {
                made += "/" + component
                try FileSystem.makeDirectory(made, in: nil, mode: 0o700, existingOK: true)
            }
            let token = try RandomBytes.hex(32)
            let fd = try FileDescriptor.openDirectory(directory)
            defer { fd.close() }
            try FileSystem.writeAtomically(Array((token + "\n").utf8), to: name, in: fd, mode: 0o600)
            return token
        } catch {
            throw TokenError(description: "cannot make the token '\(path)': \(error)")
        }
    }
}
