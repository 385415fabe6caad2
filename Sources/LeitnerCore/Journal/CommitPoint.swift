/// What a reply must wait for under group commit (docs/daemon.md, "Group commit"): the last
/// journal record the box had written when the reply was made, and the file to flush for it.
/// A reply sent only once that record is durable never shows a change that a power loss could
/// take back (R17) — its own change, or another request's it has seen.
public struct CommitPoint: Sendable {
    public let file: JournalFile
    public let number: UInt64

    /// True when the record is on disk: the reply may go.
    public var isDurable: Bool { file.isDurable(number) }
}
