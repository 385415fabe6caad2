import LeitnerSystem

/// How much memory the messages being received may take, across all connections
/// (docs/daemon.md, "Memory"). A connection reads up to `allowance` bytes of a message on its
/// own: every ordinary call fits. A longer message first takes a share of `pool`, twice its
/// connection's `MaxMessageSize=` (its buffer, then the parsed copy the call works on), and
/// keeps it until the message is answered; shares are handed out in turn, and at least one is
/// always out, so the longest message allowed always goes through. A connection waiting for a
/// share stops reading: its client's sends block meanwhile, and nothing piles up in the daemon.
///
/// With the default 16 MiB limit that is one long message at a time: some 32 MiB for it and
/// 64 KiB per connection, whatever the number of clients sending long messages at once.
final class MessageBudget: Sendable {
    /// What a connection may buffer without a share.
    static let allowance = 64 << 10
    /// What the shares add up to.
    static let pool = 32 << 20

    private let shares = Turnstile(capacity: MessageBudget.pool)

    /// The share of a message up to `maxMessageSize` bytes.
    static func share(maxMessageSize: Int) -> Int { 2 * maxMessageSize }

    /// The most bytes a connection reads of one message without a share.
    static func unsharedLimit(maxMessageSize: Int) -> Int { min(allowance, maxMessageSize + 1) }

    /// Takes a share for a message of up to `maxMessageSize` bytes, waiting for those asked
    /// before it.
    /// - Returns: false when `giveUp` (shutdown) ended the wait.
    func acquire(maxMessageSize: Int, wake: Wake, giveUp: () -> Bool) -> Bool {
        shares.acquire(weight: Self.share(maxMessageSize: maxMessageSize), wake: wake, giveUp: giveUp) == .acquired
    }

    /// Gives back a share taken with the same `maxMessageSize`.
    func release(maxMessageSize: Int) {
        shares.release(weight: Self.share(maxMessageSize: maxMessageSize))
    }
}
