/// The test of one cycle position: its queue, its passed and failed cards and its grades
/// (R8–R11, R15). A pure value: the box persists it as its opening order plus the review-log
/// events after it, and rebuilds it by replaying them through the same methods.
struct DailyTest {
    /// One grade of this test, as undo needs it (R15).
    struct Grade: Equatable {
        var id: String
        var from: Level
        var to: Level
        var correct: Bool
        var time: Int64
    }

    let position: Int
    let levels: [Level]
    /// The logical date the test was opened on.
    let opened: LogicalDate
    let seed: UInt64
    /// The review-log offset at which this test's events start; moved to the end of a log replaced
    /// under the daemon when the new file does not share the bytes before it (`Box.followReplacedFiles`).
    var logOffset: Int

    /// Every id this test has seen, numbered for good (`TestIDs`): the queue and the sets below
    /// hold these 4-byte numbers, not a string per card (docs/performance.md).
    private var ids = TestIDs()
    /// Queue members → their place; lower comes first. Cards that join go to the end (R8, R11),
    /// a card an undo brings back goes to the front (R15).
    private var place = QueuePlaces()
    /// Queue entries in order of place (ends appended); entries whose place is stale are skipped.
    private var tail: [(place: Int32, number: UInt32)] = []
    private var tailHead = 0
    /// Entries put in front, the most recent last.
    private var front: [(place: Int32, number: UInt32)] = []
    private var nextTailPlace: Int32 = 0
    private var nextFrontPlace: Int32 = -1

    /// Cards passed in this test (R8: they never rejoin it).
    private(set) var passed = Set<UInt32>()
    /// Wrong grades not undone, per card.
    private var wrongGrades: [UInt32: Int] = [:]
    /// The grades of this test not undone, in order.
    private(set) var grades: [Grade] = []
    /// The date the test was completed on (R10), nil while open.
    var completed: LogicalDate?

    /// Opens a test on `queue`, shuffled with `seed` (R11).
    init(position: Int, levels: [Level], opened: LogicalDate, seed: UInt64, logOffset: Int, queue: [String]) {
        self.init(position: position, levels: levels, opened: opened, seed: seed, logOffset: logOffset, capacity: queue.count)
        ids = TestIDs(capacity: queue.count)
        for id in queue { append(ids.intern(id)) }
    }

    /// Opens a test on the ids of `lines` (UTF-8, its file's queue, in order), numbered by the
    /// store's `index` where it holds them (`TestIDs`): each looked up from its bytes, a string
    /// made only for an id the store no longer holds.
    init(position: Int, levels: [Level], opened: LogicalDate, seed: UInt64, logOffset: Int,
         lines: [UnsafeBufferPointer<UInt8>], of index: CardIndex) {
        self.init(position: position, levels: levels, opened: opened, seed: seed, logOffset: logOffset, capacity: lines.count)
        ids = TestIDs(opening: index)
        place = QueuePlaces(inOrder: [], numbers: ids.numberCount)
        for line in lines {
            append(index.entryNumber(ofBytes: line) ?? ids.intern(String(decoding: line, as: UTF8.self)))
        }
    }

    /// Opens a test on the entries `queue` of the store's `index`, in that order (R11, already
    /// shuffled). The test numbers its ids by the index as it is now (`TestIDs`): the queue is
    /// the entries themselves, with no id copied, hashed or made a string.
    init(position: Int, levels: [Level], opened: LogicalDate, seed: UInt64, logOffset: Int,
         queue: [UInt32], of index: CardIndex) {
        self.init(position: position, levels: levels, opened: opened, seed: seed, logOffset: logOffset, capacity: 0)
        ids = TestIDs(opening: index)
        // The places are 0, 1, 2 … in the queue's order, the tail the queue itself.
        place = QueuePlaces(inOrder: queue, numbers: ids.numberCount)
        tail = queue.enumerated().map { (Int32($0.offset), $0.element) }
        nextTailPlace = Int32(queue.count)
    }

    /// An empty test with room for `capacity` cards.
    private init(position: Int, levels: [Level], opened: LogicalDate, seed: UInt64, logOffset: Int, capacity: Int) {
        self.position = position
        self.levels = levels
        self.opened = opened
        self.seed = seed
        self.logOffset = logOffset
        place.reserveCapacity(capacity)
        tail.reserveCapacity(capacity)
    }

    /// Cards in the queue.
    var remaining: Int { place.count }
    /// Distinct cards with a wrong grade not undone.
    var failedCount: Int { wrongGrades.count }
    /// Cards in the queue with a wrong grade not undone (R9: they come back until answered right).
    var repeatingCount: Int { wrongGrades.keys.reduce(0) { $0 + (place[$1] != nil ? 1 : 0) } }

    func contains(_ id: String) -> Bool { ids.number(of: id).map { place[$0] != nil } ?? false }

    /// The cards in the queue, in no particular order.
    var members: [String] { place.keys.map { ids.id(of: $0) } }

    /// The cards in the queue at each level of `index` (the store's, now), those it no longer
    /// holds left out: what `Stats` forecasts today's test from, counted without making each
    /// id a string (62,000 of them at 100,000 cards, on every view of the statistics).
    func queuedByLevel(in index: CardIndex) -> [Level: Int] {
        var counts = [Int](repeating: 0, count: Level.allCases.count)
        place.forEachMember { number, _ in
            if let level = ids.level(of: number, in: index) { counts[level.rawValue - 1] += 1 }
        }
        var byLevel: [Level: Int] = [:]
        for level in Level.allCases where counts[level.rawValue - 1] > 0 { byLevel[level] = counts[level.rawValue - 1] }
        return byLevel
    }

    /// R8: is a card at `level` a member of this test's queue?
    func belongs(_ id: String, at level: Level?) -> Bool {
        guard let level else { return false }
        let number = ids.number(of: id)
        if let number, passed.contains(number) { return false }
        return levels.contains(level) || (number.map { wrongGrades[$0] != nil } ?? false && level.inRotation)
    }

    /// The first card of the queue, nil when it is empty.
    mutating func head() -> String? {
        while let last = front.last {
            if place[last.number] == last.place { return ids.id(of: last.number) }
            front.removeLast()
        }
        while tailHead < tail.count {
            let entry = tail[tailHead]
            if place[entry.number] == entry.place { return ids.id(of: entry.number) }
            tailHead += 1
        }
        return nil
    }

    /// The first card of the queue, in its order, that `accepts` takes; nil when none does.
    /// It walks the queue only as far as that card, so a head that is taken costs one look.
    func first(where accepts: (String) -> Bool) -> String? {
        for entry in front.reversed() where place[entry.number] == entry.place {
            let id = ids.id(of: entry.number)
            if accepts(id) { return id }
        }
        for entry in tail[tailHead...] where place[entry.number] == entry.place {
            let id = ids.id(of: entry.number)
            if accepts(id) { return id }
        }
        return nil
    }

    /// The test's file: `header`, then the ids of the queue in order, one a line (`TestFile`):
    /// the entries put in front, the most recent first, then the rest — the members by place.
    /// O(n), no string per card, one buffer written with one `write`, and the ids read in the
    /// order they lie in the index: each line's offset is found from the lengths by place, then
    /// each id is copied to it. Copying them in the queue's order instead read a shuffled
    /// queue's ids at random places of the index, and waited on those reads (a third of opening
    /// a test of 62,000 cards; docs/performance.md, Prepare).
    func file(header: [UInt8]) -> [UInt8] {
        // Members' places lie between the last put in front and the next at the end.
        let low = Int(nextFrontPlace) + 1
        var offsets = [Int](repeating: -1, count: max(0, Int(nextTailPlace) - low))
        place.forEachMember { number, at in offsets[Int(at) - low] = ids.length(of: number) }
        var total = header.count
        for index in offsets.indices where offsets[index] >= 0 {
            let length = offsets[index]
            offsets[index] = total
            total += length + 1
        }
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            _ = out.initialize(from: header)
            ids.withCopier { copy in
                place.forEachMember { number, at in
                    let offset = offsets[Int(at) - low]
                    out[offset + copy(number, out.baseAddress! + offset)] = UInt8(ascii: "\n")
                }
            }
            initialized = total
        }
    }

    /// The queue in order (for tests and `List`-like views; O(n log n)).
    var queue: [String] { place.inOrder.map { ids.id(of: $0) } }

    /// R8: a card's level changed (or it appeared, or left: `level` nil). It joins the end of the
    /// queue when it now belongs and is not in it, leaves when it no longer belongs, and keeps its
    /// place otherwise.
    /// - Returns: whether it joined the queue.
    @discardableResult
    mutating func levelChanged(_ id: String, to level: Level?) -> Bool {
        if belongs(id, at: level) {
            let number = ids.intern(id)
            if place[number] == nil {
                append(number)
                return true
            }
        } else if let number = ids.number(of: id) {
            place[number] = nil
        }
        return false
    }

    /// R9: records a grade. Correct: the card is passed and leaves. Wrong: it goes to the end,
    /// unless the grade suspended it (R24).
    mutating func grade(_ grade: Grade) {
        grades.append(grade)
        let number = ids.intern(grade.id)
        if grade.correct {
            passed.insert(number)
            place[number] = nil
        } else {
            wrongGrades[number, default: 0] += 1
            place[number] = nil
            // A wrong answer that suspended a leech (R24) took the card out of every test.
            if !grade.to.isPlace { append(number) }
        }
    }

    /// R15: withdraws the last grade; the card goes to the front of the queue and a completion
    /// is withdrawn. Returns the grade undone.
    @discardableResult
    mutating func undo() -> Grade? {
        guard let last = grades.popLast() else { return nil }
        let number = ids.intern(last.id)
        if last.correct {
            passed.remove(number)
        } else if let count = wrongGrades[number] {
            wrongGrades[number] = count > 1 ? count - 1 : nil
        }
        completed = nil
        place[number] = nextFrontPlace
        front.append((nextFrontPlace, number))
        nextFrontPlace -= 1
        return last
    }

    /// A card's id changed: it keeps its place in the queue, its passed or failed mark and its
    /// grades (an undo after a rename takes back the grade of the renamed card).
    mutating func rename(_ id: String, to newID: String) {
        guard let old = ids.number(of: id) else { return }
        // The new id gets a number of its own (numbers are never reused or renamed); every
        // reference to the old number moves to it.
        let new = ids.intern(newID)
        if let mark = place.removeValue(forKey: old) {
            place[new] = mark
            if let index = tail.lastIndex(where: { $0.place == mark && $0.number == old }) { tail[index].number = new }
            if let index = front.lastIndex(where: { $0.place == mark && $0.number == old }) { front[index].number = new }
        }
        if passed.remove(old) != nil { passed.insert(new) }
        if let count = wrongGrades.removeValue(forKey: old) { wrongGrades[new] = count }
        for index in grades.indices where grades[index].id == id { grades[index].id = newID }
    }

    /// R10: a test with at least one grade whose queue is empty is complete.
    var isDone: Bool { completed == nil && !grades.isEmpty && place.isEmpty }

    private mutating func append(_ number: UInt32) {
        place[number] = nextTailPlace
        tail.append((nextTailPlace, number))
        nextTailPlace += 1
    }
}
