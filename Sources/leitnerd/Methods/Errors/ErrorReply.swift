import LeitnerProtocol
import LeitnerVarlink

/// An error reply, ready to send, as the failure of a `Result`: what `BoxOwner.run` gives when
/// the box refused, failed or was busy.
struct ErrorReply: Error {
    let reply: VarlinkReply
}
