import LeitnerCore

/// The run's one source of chance: every choice the fuzzer makes comes from it, so that the seed
/// replays the run.
struct FuzzRandom {
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < probability }

    /// One element of a non-empty collection.
    mutating func pick<C: Collection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + int(0...(items.count - 1))]
    }

    /// Bytes drawn at random.
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }

    /// The same elements in an order drawn at random.
    mutating func shuffled<T>(_ items: [T]) -> [T] { items.shuffled(using: &generator) }
}
