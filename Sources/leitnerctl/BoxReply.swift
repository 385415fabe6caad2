import LeitnerProtocol
import LeitnerVarlink

/// A reply of the daemon as it came and as the interface's types: `json` is what `--json`
/// prints unchanged (the daemon's members, not a re-encoding), `value` what the views show,
/// decoded once where the reply arrives (`Context.call(_:_:as:)`).
struct BoxReply<Value> {
    /// The reply's parameters as the daemon sent them.
    let json: [String: JSONValue]
    /// The parameters decoded.
    let value: Value
}
