import Glibc
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink
import Synchronization

/// A transport whose daemon is never there: every call fails as a missing socket does, and is
/// counted, so that a test can tell whether a request reached the daemon at all.
final class DaemonDownTransport: BoxTransport, Sendable {
    let calls = Atomic<Int>(0)

    func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        calls.add(1, ordering: .relaxed)
        throw VarlinkClientError.notListening(path: "/run/test/leitnerd.sock", reason: Errno(rawValue: ENOENT))
    }

    func stream(_ method: String, _ parameters: [String: JSONValue], _ body: ([String: JSONValue]) throws -> Void) throws {
        calls.add(1, ordering: .relaxed)
        throw VarlinkClientError.notListening(path: "/run/test/leitnerd.sock", reason: Errno(rawValue: ENOENT))
    }
}
