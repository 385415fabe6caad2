/// The watches whose card directories had events since a view's last update (`changedCards`),
/// asked about each card the view knows: a bit a watch, so that a view of 100,000 cards asks
/// 100,000 times without hashing. A profile of 50 clients reviewing with whole-level `List`s
/// and small `Search`es put a tenth of the daemon's time in the search index's update under the
/// box's turn, most of it hashing every card's watch to find the few cards graded since.
struct TouchedWatches {
    /// The watches as the feed gave them.
    let all: Set<Int32>
    /// A bit for each watch from `lowest` on, or nil when they lie too far apart (a daemon whose
    /// descriptors climbed for years): `all` is asked then.
    private let bits: [UInt64]?
    private let lowest: Int32

    /// The most bits kept: 512 KiB.
    private static let maxSpan = 1 << 22

    init(_ watches: Set<Int32>) {
        all = watches
        let low = watches.min() ?? 0
        lowest = low
        let span = watches.max().map { Int($0) - Int(low) + 1 } ?? 0
        guard span <= Self.maxSpan else {
            bits = nil
            return
        }
        var bits = [UInt64](repeating: 0, count: (span + 63) / 64)
        for watch in watches {
            let offset = Int(watch) - Int(low)
            bits[offset >> 6] |= 1 << UInt64(offset & 63)
        }
        self.bits = bits
    }

    var isEmpty: Bool { all.isEmpty }

    func contains(_ watch: Int32) -> Bool {
        guard let bits else { return all.contains(watch) }
        let offset = Int(watch) - Int(lowest)
        guard offset >= 0, offset >> 6 < bits.count else { return false }
        return bits[offset >> 6] & 1 << UInt64(offset & 63) != 0
    }
}
