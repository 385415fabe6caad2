/// The order of a test's queue (R11): cards sorted by their shuffle key (`SeededGenerator.key`),
/// a tie broken by the ids' bytes. Opening a test of 62,500 cards sorts as many keys. Each card
/// is one 8-byte item, the high half of its key over its entry number (`item(key:entry:)`), and
/// a radix sort of three passes orders them by that half; the few cards whose halves are equal
/// (about one pair in 62,500 cards: 62,500² / 2³³) are then ordered by their whole key and their
/// ids. The same order as sorting whole keys, for a quarter of the memory traffic of six passes
/// over 16-byte (key, entry) pairs (docs/performance.md, Prepare).
enum ShuffleOrder {
    /// The item of a card: the high 32 bits of its key over its entry number.
    static func item(key: UInt64, entry: UInt32) -> UInt64 { key & 0xFFFF_FFFF_0000_0000 | UInt64(entry) }

    /// The entry number of an item.
    static func entry(_ item: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: item) }

    /// Sorts `items` (`item(key:entry:)`) by key: `key` gives an entry's whole key, asked only
    /// for cards whose high halves are equal; equal keys are ordered by `precedes` on the entries.
    static func sort(_ items: inout [UInt64], key: (UInt32) -> UInt64, tieBreak precedes: (UInt32, UInt32) -> Bool) {
        let count = items.count
        guard count > 1 else { return }
        // The three digits of the high half: bits 32–42, 43–53, 54–63. Their counts are taken in
        // one pass over the items, then each pass moves every item once.
        let shifts: [UInt64] = [32, 43, 54]
        let buckets = 2048
        var counts = [Int](repeating: 0, count: shifts.count * buckets)
        var scratch = [UInt64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        counts.withUnsafeMutableBufferPointer { counts in
            items.withUnsafeBufferPointer { source in
                for item in source {
                    counts[Int(item >> 32 & 0x7FF)] += 1
                    counts[buckets + Int(item >> 43 & 0x7FF)] += 1
                    counts[2 * buckets + Int(item >> 54)] += 1
                }
            }
            for digit in shifts.indices {
                var start = 0
                for bucket in digit * buckets..<(digit + 1) * buckets {
                    let n = counts[bucket]
                    counts[bucket] = start
                    start += n
                }
            }
            for (digit, shift) in shifts.enumerated() {
                let base = digit * buckets
                // Passes alternate between the two arrays: items → scratch → items → scratch.
                func pass(_ source: UnsafeMutableBufferPointer<UInt64>, _ target: UnsafeMutableBufferPointer<UInt64>) {
                    for item in source {
                        let bucket = base + Int(item >> shift & 0x7FF)
                        target[counts[bucket]] = item
                        counts[bucket] += 1
                    }
                }
                items.withUnsafeMutableBufferPointer { items in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        if digit % 2 == 0 { pass(items, scratch) } else { pass(scratch, items) }
                    }
                }
            }
        }
        // Three passes: the sorted items are in `scratch`.
        swap(&items, &scratch)
        // Cards whose high halves are equal (rare): by their whole keys, then by their ids.
        var low = 0
        while low < count {
            var high = low + 1
            while high < count, items[high] >> 32 == items[low] >> 32 { high += 1 }
            if high - low > 1 {
                var tied = items[low..<high].map { (key: key(entry($0)), item: $0) }
                tied.sort { $0.key != $1.key ? $0.key < $1.key : precedes(entry($0.item), entry($1.item)) }
                for (offset, pair) in tied.enumerated() { items[low + offset] = pair.item }
            }
            low = high
        }
    }
}
