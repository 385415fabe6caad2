import LeitnerSystem

/// A browser that opened the link with the token: its CSRF token, and the review's cards it was
/// shown, each under a handle so that the page need not carry the card's id before its answer.
struct Session: Sendable {
    /// Put in every form and checked on every POST.
    let csrf: String
    /// When it was last used, to forget the oldest session first.
    var lastUsed: MonotonicTime
    /// Handle → (card id, when its front was shown, whether its answer was shown), the newest
    /// last; at most `maxHandles`.
    var handles: [(handle: String, id: String, shown: MonotonicTime, answered: Bool)] = []

    static let maxHandles = 32

    init(csrf: String, now: MonotonicTime) {
        self.csrf = csrf
        lastUsed = now
    }

    /// The handle of card `id` shown at `now`: the one it has when it is the newest, so that
    /// reloading the front keeps its answer time from the first showing.
    mutating func handle(for id: String, now: MonotonicTime, make: () -> String) -> String {
        if let last = handles.last, last.id == id { return last.handle }
        let handle = make()
        handles.append((handle, id, now, false))
        if handles.count > Self.maxHandles { handles.removeFirst(handles.count - Self.maxHandles) }
        return handle
    }

    /// The card and the time its front was shown, for a handle a page carried; `answered` when
    /// its answer page was shown (the edit page shows the id, so it needs that).
    func card(forHandle handle: String) -> (id: String, shown: MonotonicTime, answered: Bool)? {
        handles.last { ConstantTime.equal($0.handle, handle) }.map { ($0.id, $0.shown, $0.answered) }
    }

    /// Notes that the answer of the card under `handle` was shown.
    mutating func markAnswered(_ handle: String) {
        guard let index = handles.lastIndex(where: { ConstantTime.equal($0.handle, handle) }) else { return }
        handles[index].answered = true
    }
}
