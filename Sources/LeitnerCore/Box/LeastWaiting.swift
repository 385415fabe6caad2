/// The least ids of `new/`, kept from one day's opening to the next (R23: the cards put there by
/// hand, and those no log line of this device put there, are admitted by id, after the logged
/// arrivals). Finding them walks every entry of the store's index at `new/` — 100,000 at a time
/// in a store with that many waiting, the whole of what the opening added to `Prepare` on the
/// box's turn (docs/performance.md, "The least ids of `new/`, kept"). A daemon opens a day once,
/// and `new/` changes by a few cards a day: so the walk is made once, at the box's open (beside
/// the scan that read those 100,000 names, a small part of it), and kept current from the
/// store's change feed, which names every card that came into or left `new/` — by a request or
/// by hand (R13) — so that an opening reads only what changed since the last.
///
/// Kept exact: every card in `new/` is in `least` or has an id greater than `bound`, in the
/// ids' byte order (`CardIndex.leastEntries`'). A card that leaves `new/` leaves `least`; one
/// that comes is put in when it is not past `bound`; past `capacity`, the greatest goes and
/// `bound` comes down to the last kept. When fewer are kept than a day asks (the days' admissions
/// used them up), or the feed lost changes (the kernel dropped events, the levels were scanned
/// again), `new/` is walked again.
///
/// A view of the store (docs/architecture.md), as the tag table is: a cursor and at most
/// `capacity` ids.
struct LeastWaiting {
    /// The ids kept by the box's view: a dozen days of `NewPerDay=20`'s admissions before a walk
    /// again, for 256 strings. A day asking more (a larger `NewPerDay=`, or `all`) walks `new/`
    /// itself.
    static let capacity = 256

    /// The most ids kept.
    let capacity: Int

    /// Where the view is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor
    /// The least ids of `new/`, in byte order, at most `capacity`.
    private var least: [String]
    /// Every card of `new/` not in `least` has a greater id; nil when `least` holds all of `new/`.
    private var bound: String?

    /// The view walked now: its cursor opened before the walk, on the box's turn, so that no
    /// change falls between the two.
    init(store: Store, capacity: Int = LeastWaiting.capacity) {
        self.capacity = capacity
        cursor = store.openCursor()
        let index = store.cardLevels
        least = index.leastEntries(capacity + 1, at: .new).map { index.id(ofEntry: $0) }
        bound = nil
        if least.count > capacity {
            least.removeLast()
            bound = least.last
        }
    }

    /// Takes in the changes since the last call: each request's, so that the feed keeps none for
    /// this view past the request that made them. False when the feed lost some: the view is
    /// walked anew, its cursor closed.
    mutating func follow(store: Store) -> Bool {
        guard let changes = store.changes(since: cursor) else { return false }
        for case .level(let id, let from, let to) in changes where (from == .new) != (to == .new) {
            let place = LeastWaiting.place(of: id, in: least)
            if from == .new {
                if place < least.count, least[place].utf8.elementsEqual(id.utf8) { least.remove(at: place) }
            } else if bound.map({ !LeastWaiting.precedes($0, id) }) ?? true {
                least.insert(id, at: place)
                if least.count > capacity {
                    least.removeLast()
                    bound = least.last
                }
            }
        }
        return true
    }

    /// The `limit` least ids of `new/` as of the last `follow`, in byte order (fewer when `new/`
    /// holds fewer); nil when fewer are kept and `new/` holds more: walk it again.
    func first(_ limit: Int) -> ArraySlice<String>? {
        guard least.count >= limit || bound == nil else { return nil }
        return least.prefix(limit)
    }

    /// Where `id` is or would be in `ids`, sorted: the first place whose id does not precede it.
    private static func place(of id: String, in ids: [String]) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(ids[middle], id) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The ids' byte order, as `CardIndex.leastEntries` orders them.
    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
