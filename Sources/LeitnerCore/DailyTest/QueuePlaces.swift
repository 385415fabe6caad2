/// The open test's queue members and their places (`DailyTest`), by the test's own entry
/// numbers, which are dense (0, 1, 2 … as ids are interned): a flat array rather than a
/// dictionary. Opening a test of 62,500 cards fills it without hashing a number once, and every
/// lookup is an index (docs/performance.md, Prepare).
struct QueuePlaces {
    /// Per entry number: its place, or `absent`.
    private var places: [Int32] = []
    /// Members.
    private(set) var count = 0

    private static let absent = Int32.min

    /// The places of a queue opened in one go: `order`, entry numbers below `numbers`, get the
    /// places 0, 1, 2 … as they come (a number given twice keeps its later place).
    init(inOrder order: some Sequence<UInt32>, numbers: Int) {
        places = [Int32](repeating: QueuePlaces.absent, count: numbers)
        for (place, number) in order.enumerated() {
            if places[Int(number)] == QueuePlaces.absent { count += 1 }
            places[Int(number)] = Int32(place)
        }
    }

    init() {}

    var isEmpty: Bool { count == 0 }

    mutating func reserveCapacity(_ capacity: Int) { places.reserveCapacity(capacity) }

    /// The place of `number`, nil when it is not in the queue; setting nil takes it out.
    subscript(number: UInt32) -> Int32? {
        get {
            let index = Int(number)
            guard index < places.count, places[index] != QueuePlaces.absent else { return nil }
            return places[index]
        }
        set {
            let index = Int(number)
            if index >= places.count {
                guard newValue != nil else { return }
                places.append(contentsOf: repeatElement(QueuePlaces.absent, count: index + 1 - places.count))
            }
            let was = places[index] != QueuePlaces.absent
            places[index] = newValue ?? QueuePlaces.absent
            count += (newValue != nil ? 1 : 0) - (was ? 1 : 0)
        }
    }

    /// Takes `number` out; its place, nil when it was not in.
    mutating func removeValue(forKey number: UInt32) -> Int32? {
        let place = self[number]
        self[number] = nil
        return place
    }

    /// Calls `body` with each member and its place, by number.
    func forEachMember(_ body: (UInt32, Int32) -> Void) {
        places.withUnsafeBufferPointer { places in
            for (number, place) in places.enumerated() where place != QueuePlaces.absent { body(UInt32(number), place) }
        }
    }

    /// The members, in no particular order.
    var keys: [UInt32] {
        places.indices.compactMap { places[$0] != QueuePlaces.absent ? UInt32($0) : nil }
    }

    /// The members in the order of their places.
    var inOrder: [UInt32] {
        keys.sorted { places[Int($0)] < places[Int($1)] }
    }
}
