/// The ids an open test numbers (`DailyTest`): its queue, places and passed and failed cards
/// hold these 4-byte numbers, not a string per card, and a number, once given, names the same id
/// for the test's life.
///
/// A test opened from the store takes the store's index as it was then (`opening`): a copy of
/// the value, which costs nothing, since its arrays are shared until one side changes them, and
/// gives the queue's cards their numbers with no id hashed or copied. The store's entry numbers
/// themselves could not serve for the test's life — a card removed leaves its number, renames
/// and re-adds give new ones, a compaction or a rescan after lost events numbers every card
/// anew — but this copy never changes: the store's changes copy the store's own arrays, once,
/// and leave these as they were. Ids met later (a card that joins, a new id after a rename) are
/// numbered after it, in `later`, which is only added to (docs/performance.md, Prepare).
struct TestIDs {
    /// The store's index when the test opened, never changed. Its removed entries name no card:
    /// no lookup finds them.
    private let opening: CardIndex
    /// The ids not in `opening`, numbered from `opening.entryCount` on.
    private var later = CardIndex()

    /// No ids yet; room for `capacity` before the table grows.
    init(capacity: Int = 0) {
        opening = CardIndex()
        later = CardIndex(minimumCapacity: capacity)
    }

    /// The ids of the store's `index`, numbered by its entry numbers.
    init(opening index: CardIndex) { opening = index }

    /// Numbers below this name ids of `opening`; numbers below `numberCount` are given.
    private var split: UInt32 { UInt32(opening.entryCount) }

    /// Numbers given so far (some of `opening`'s name no card): every number is below it.
    var numberCount: Int { opening.entryCount + later.entryCount }

    /// The number of `id`, nil when it has none.
    func number(of id: String) -> UInt32? {
        if let number = opening.entryNumber(of: id) { return number }
        return later.entryNumber(of: id).map { split + $0 }
    }

    /// The number of `id`, given now when it has none.
    mutating func intern(_ id: String) -> UInt32 {
        if let number = opening.entryNumber(of: id) { return number }
        return split + later.intern(id)
    }

    /// The level in `index` (the store's, now) of the id of a number, with no string made.
    func level(of number: UInt32, in index: CardIndex) -> Level? {
        number < split ? index.level(ofEntry: number, of: opening) : index.level(ofEntry: number - split, of: later)
    }

    /// The id of a number.
    func id(of number: UInt32) -> String {
        number < split ? opening.id(ofEntry: number) : later.id(ofEntry: number - split)
    }

    /// Calls `body` with a function that copies the id of a number to a place in memory and
    /// returns its length: the ids read where they lie, valid during the call only.
    func withCopier<R>(_ body: ((UInt32, UnsafeMutablePointer<UInt8>) -> Int) -> R) -> R {
        let split = self.split
        return opening.withArenaBytes { openingBytes in
            later.withArenaBytes { laterBytes in
                body { number, target in
                    let (bytes, span) = number < split
                        ? (openingBytes, opening.span(ofEntry: number)) : (laterBytes, later.span(ofEntry: number - split))
                    if span.length > 0 { TestIDs.copy(span.length, from: bytes.baseAddress! + span.offset, to: target) }
                    return span.length
                }
            }
        }
    }

    /// The length of the id of a number.
    func length(of number: UInt32) -> Int {
        number < split ? opening.span(ofEntry: number).length : later.span(ofEntry: number - split).length
    }

    /// Copies a short run of bytes eight at a time, inline (no call per id).
    @inline(__always)
    private static func copy(_ count: Int, from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        var done = 0
        while done + 8 <= count {
            UnsafeMutableRawPointer(target + done).storeBytes(of: UnsafeRawPointer(source + done).loadUnaligned(as: UInt64.self),
                                                              as: UInt64.self)
            done += 8
        }
        while done < count {
            target[done] = source[done]
            done += 1
        }
    }

}
