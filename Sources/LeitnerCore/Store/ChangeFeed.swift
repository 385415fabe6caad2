/// What changed in the store, numbered, for the views kept from it — the search index, the tag
/// table, the link index, the notes' index: each holds a cursor and takes the changes since it,
/// so that the store knows neither who follows it nor what each one needs (docs/architecture.md,
/// "Views of the store").
///
/// Bounded: the feed keeps the changes the slowest cursor has not taken, and at most `limit` of
/// them. A cursor left further behind takes nil, "lost": its view reads everything again, as
/// it does when the kernel dropped events. With no cursor open nothing is kept at all.
///
/// Not thread-safe: the box's owner publishes and takes (an index build off the turn holds a
/// cursor, opened and taken under the turn).
struct ChangeFeed {
    enum Change {
        /// A card came (`from` nil), went (`to` nil), or moved; published by every change of the
        /// store's index, the box's and a hand's (R13).
        case level(id: String, from: Level?, to: Level?)
        /// The box rewrote a card's files in place (an edit, its tags, a settle's merge): its
        /// level is the same.
        case written(id: String)
        /// An event of a card directory's own watch, one a view added (`Inotify.Watcher`):
        /// `entry` is the name in the directory the event is about, empty for the directory itself.
        /// (The string first: so a change is 24 bytes, not 32.)
        case directory(entry: String, watch: Int32)
        /// The box wrote, renamed or removed the note `id` in `notes/` (R30): its watch tells
        /// only at the next request, and the note's cards follow it in this one.
        case note(id: String)
    }

    /// A view's place in the feed. The feed keeps where each open cursor is, so that it knows
    /// what the slowest one still needs; the view holds only its key.
    struct Cursor: Sendable, Equatable {
        fileprivate let key: Int

        /// No cursor, for a view being built: it takes nil, as a lost one does.
        static let none = Cursor(key: -1)
    }

    /// The most changes kept for a cursor that does not take them: 24 bytes each, 1.5 MiB. A
    /// view further behind reads every card again, which costs no more than reading that many.
    static let defaultLimit = 1 << 16

    private let limit: Int
    /// The changes from number `first` on.
    private var changes: [Change] = []
    private var first = 0
    /// Each open cursor's key and the number of the next change it takes: a handful, so an
    /// array.
    private var positions: [(key: Int, next: Int)] = []
    private var nextKey = 0
    /// Set when a cursor moved: the changes it took are dropped at the next publish, when the
    /// slice `take` handed out is gone (dropped while it lives, the array would be copied).
    private var trimPending = false

    init(limit: Int = ChangeFeed.defaultLimit) {
        self.limit = max(limit, 2)
    }

    /// The number the next change published gets.
    private var end: Int { first + changes.count }

    /// Adds a change for the open cursors; nothing when none is open. Allocates only when the
    /// kept changes outgrow their array.
    mutating func publish(_ change: Change) {
        guard !positions.isEmpty else { return }
        if trimPending { trim() }
        if changes.count >= limit {
            // The oldest half goes: the cursors that still needed it take nil, "lost".
            let dropped = changes.count / 2
            changes.removeFirst(dropped)
            first += dropped
        }
        changes.append(change)
    }

    /// Events were lost, or every level was scanned again: every open cursor takes nil, "lost",
    /// and its view reads everything again. One number is skipped, so that even a cursor at the
    /// end is behind the first change kept.
    mutating func loseAll() {
        first = end + 1
        changes.removeAll(keepingCapacity: true)
    }

    /// A cursor at the feed's end: it takes the changes published from now on.
    mutating func open() -> Cursor {
        defer { nextKey += 1 }
        positions.append((nextKey, end))
        return Cursor(key: nextKey)
    }

    /// Forgets a cursor whose view is gone: the feed no longer keeps changes for it.
    mutating func close(_ cursor: Cursor) {
        positions.removeAll { $0.key == cursor.key }
        trim()
    }

    /// The changes since `cursor`, oldest first, and the cursor moved past them; nil when some
    /// of them were dropped (lost), or the cursor was closed: the view reads everything again.
    /// The slice shares the feed's storage: nothing is copied.
    mutating func take(_ cursor: Cursor) -> ArraySlice<Change>? {
        guard let index = positions.firstIndex(where: { $0.key == cursor.key }) else { return nil }
        let since = positions[index].next
        positions[index].next = end
        trimPending = true
        guard since >= first else { return nil }
        return changes[(since - first)...]
    }

    /// True when `cursor` would take nil: its view must read everything again.
    func isLost(_ cursor: Cursor) -> Bool {
        guard let position = positions.first(where: { $0.key == cursor.key }) else { return true }
        return position.next < first
    }

    /// True when `cursor` would take a change, or nil: its view would read something again.
    func hasChanges(since cursor: Cursor) -> Bool {
        guard let position = positions.first(where: { $0.key == cursor.key }) else { return true }
        return position.next < end
    }

    /// The number of changes kept.
    var count: Int { changes.count }

    /// Drops the changes every cursor has taken: all of them at once when every cursor is at the
    /// end (the usual case: the array's storage is kept), else the prefix once it is half the
    /// array, so that each change is moved at most once on average.
    private mutating func trim() {
        trimPending = false
        var slowest = end
        // A lost cursor needs nothing kept.
        for position in positions where position.next >= first && position.next < slowest { slowest = position.next }
        let taken = slowest - first
        guard taken > 0 else { return }
        if taken == changes.count {
            first += taken
            changes.removeAll(keepingCapacity: true)
        } else if taken * 2 >= changes.count {
            changes.removeFirst(taken)
            first += taken
        }
    }
}

extension Store {
    /// The start of every view's update: the cards the changes since `cursor` name, with
    /// `pending` (the cards the view looks at again each time, those it could not watch), and
    /// the watches of the directory events whose entry `entry` accepts (the view knows which
    /// card each of its watches is, `TouchedWatches`). Nil when the view lost changes: its cursor
    /// is closed, and it builds anew.
    func changedCards(since cursor: ChangeFeed.Cursor, pending: Set<String>,
                      entry: (String) -> Bool = { _ in true }) -> (cards: Set<String>, watches: TouchedWatches)? {
        guard let changes = changes(since: cursor) else {
            closeCursor(cursor)
            return nil
        }
        var cards = pending
        var watches = Set<Int32>()
        for change in changes {
            switch change {
            case .level(let id, _, _), .written(let id): cards.insert(id)
            case .directory(let name, let watch): if entry(name) { watches.insert(watch) }
            case .note: break
            }
        }
        return (cards, TouchedWatches(watches))
    }
}
