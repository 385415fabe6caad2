import Glibc
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The methods of `io.leitner.Box` that are about the daemon itself, not the box: they never
/// wait for a turn at the box (docs/protocol.md). One handler per method, named in the
/// dispatcher's method table (`Dispatcher.methods`) as the daemon's own.
enum DaemonMethods {
    /// What a handler works with: who called, and how to stop the daemon.
    struct Context {
        let peer: Socket.PeerCredentials
        let stop: StopRequest
    }

    typealias Handler = @Sendable (Context, CallParameters) throws -> [String: JSONValue]

    /// `Stop()`: the daemon replies, then stops as on SIGTERM. A member of `AllowGroup=` may use
    /// the box, but only the daemon's own user and root may end it for everyone.
    static func stop(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        guard context.peer.uid == FileSystem.effectiveUserID || context.peer.uid == 0 else {
            Log.warning("Stop() from pid \(context.peer.pid) (uid \(context.peer.uid)) refused: not the daemon's user or root")
            throw PermissionDenied()
        }
        context.stop.ask(status: 0, reason: "Stop() called by pid \(context.peer.pid) (uid \(context.peer.uid))")
        return [:]
    }
}
