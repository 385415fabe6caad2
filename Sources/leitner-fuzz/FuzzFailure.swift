/// Something the daemon did that it must never do: died, hung, closed a connection without a
/// reply, answered outside its interface, or left the box breaking an invariant. It ends the
/// run; the seed and the call replay it.
struct FuzzFailure: Error, CustomStringConvertible {
    /// What went wrong, in words.
    var reason: String
    /// The call that brought it about, when one did.
    var call: FuzzCall?

    init(_ reason: String, call: FuzzCall? = nil) {
        self.reason = reason
        self.call = call
    }

    var description: String {
        guard let call else { return reason }
        return "\(reason)\n  call (\(call.purpose)): \(call.summary)"
    }
}
