/// A type of the Varlink interface definition language (varlink.org, "Interface Definition"):
/// what a member of a call, a reply or an error may hold.
public indirect enum VarlinkType: Sendable, Equatable {
    case bool
    case int
    case float
    case string
    /// `object`: any JSON object, not looked into.
    case object
    /// A type declared with `type Name …` in the same interface.
    case named(String)
    /// `?T`: absent, `null`, or a `T`.
    case optional(VarlinkType)
    /// `[]T`.
    case array(VarlinkType)
    /// `[string]T`: an object whose members are all `T`.
    case map(VarlinkType)
    /// `(a, b, c)`: one of these strings.
    case enumeration([String])
    /// `(name: T, …)`: an object with these members.
    case structure([VarlinkField])

    /// Whether a member of this type may be absent or `null`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}
