import LeitnerSystem

/// The connections accepted while their address held its share of places, all busy (docs/web.md,
/// "HTTP"): each waits here, unread, for a place its address may take, in the order they came,
/// so that a burst of page loads from one address is served in turn rather than refused, while
/// a stranger's excess never takes another address's place. Owned by the accept loop's thread.
struct WaitingLine {
    /// How long a connection may wait for a place before it gets 503.
    static let patience: Duration = .seconds(5)

    struct Waiting {
        let socket: FileDescriptor
        let share: WebServer.Table.Share
        let since: MonotonicTime
    }

    /// How many may wait for one address, as many as the listen backlog holds: past it, a new
    /// one from there gets 503 at once. A waiting connection holds its socket only (its thread's
    /// doorbell is made when it is admitted).
    static let perAddress = Int(ServiceListener.backlog)
    private var waiting: [Waiting] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// Whether a connection from `address` must wait: others from there wait already, and it may
    /// not pass them.
    func holds(_ address: String) -> Bool {
        waiting.contains { $0.share.address == address }
    }

    /// Puts a connection in the line. - Returns: false when its address has `perAddress` waiting
    /// already (the caller refuses it).
    mutating func add(_ socket: FileDescriptor, share: WebServer.Table.Share) -> Bool {
        guard waiting.count(where: { $0.share.address == share.address }) < Self.perAddress else { return false }
        waiting.append(Waiting(socket: socket, share: share, since: .now))
        return true
    }

    /// Takes out, in order, each connection that `admit` lets in (true) or that has waited past
    /// `patience` (handed to `expire`); once `admit` leaves one of an address waiting, the later
    /// ones of that address wait too.
    mutating func serve(admit: (Waiting) -> Bool, expire: (Waiting) -> Void) {
        let now = MonotonicTime.now
        var stuck: Set<String> = []
        waiting.removeAll { item in
            if now - item.since > Self.patience {
                expire(item)
                return true
            }
            guard !stuck.contains(item.share.address) else { return false }
            if admit(item) { return true }
            stuck.insert(item.share.address)
            return false
        }
    }

    /// Hands every waiting connection to `close`, at shutdown.
    mutating func empty(_ close: (Waiting) -> Void) {
        waiting.forEach(close)
        waiting = []
    }
}
