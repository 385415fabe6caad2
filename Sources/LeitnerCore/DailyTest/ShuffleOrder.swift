/// The order of a test's queue (R11): cards sorted by their shuffle key (`SeededGenerator.key`),
/// a tie broken by the ids' bytes. Opening a test of 62,500 cards sorts as many keys: a radix
/// sort on the 64-bit keys, six passes of 11 bits over 12-byte items, costs a fraction of a
/// comparison sort of tuples (docs/performance.md, Prepare).
enum ShuffleOrder {
    /// Sorts `items` by key, ties by `precedes` (which is given the two entries).
    static func sort(_ items: inout [(key: UInt64, entry: UInt32)], tieBreak precedes: (UInt32, UInt32) -> Bool) {
        guard items.count > 1 else { return }
        let bits = 11, buckets = 1 << bits, mask = UInt64(buckets - 1)
        var source = items
        var target = items
        var counts = [Int](repeating: 0, count: buckets)
        var shift: UInt64 = 0
        while shift < 64 {
            for index in counts.indices { counts[index] = 0 }
            for item in source { counts[Int((item.key >> shift) & mask)] += 1 }
            var start = 0
            for index in counts.indices {
                let count = counts[index]
                counts[index] = start
                start += count
            }
            for item in source {
                let bucket = Int((item.key >> shift) & mask)
                target[counts[bucket]] = item
                counts[bucket] += 1
            }
            swap(&source, &target)
            shift += UInt64(bits)
        }
        // Equal keys (a 64-bit hash: rare) are ordered by their ids.
        var low = 0
        while low < source.count {
            var high = low + 1
            while high < source.count, source[high].key == source[low].key { high += 1 }
            if high - low > 1 { source[low..<high].sort { precedes($0.entry, $1.entry) } }
            low = high
        }
        items = source
    }
}
