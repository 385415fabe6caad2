import Glibc

/// The open test on disk, `.leitner/test`: written once when a test opens, atomically, and never
/// changed after; what happens in the test afterwards is in the review log from `log` on.
///
///     leitner-test 1
///     position 12
///     levels 2,1
///     opened 2026-11-21
///     seed 1234567
///     log 4096
///     queue 3
///     hola
///     adios
///     gato
enum TestFile {
    static let name = "test"
    static let ready = "test-ready"
    /// The last logical date the day opened on (R23), when no test file or admission says it.
    static let dayOpened = "day-opened"

    /// The file of `test` with its own queue, in order (`DailyTest.file(header:)`).
    static func encode(_ test: DailyTest) -> [UInt8] {
        test.file(header: Array(header(test, count: test.remaining).utf8))
    }

    private static func header(_ test: DailyTest, count: Int) -> String {
        """
        leitner-test 1
        position \(test.position)
        levels \(test.levels.map(\.name).joined(separator: ","))
        opened \(test.opened)
        seed \(test.seed)
        log \(test.logOffset)
        queue \(count)

        """
    }

    /// Parses the file; nil when it is not a whole test file (a leftover the box then ignores).
    /// With the store's `index`, the test numbers its ids by it (`TestIDs`): each id of the queue
    /// is looked up where it lies in the file, with no string made for the cards the store holds
    /// (a restart reads a test of 62,000 cards; docs/performance.md, "Start-up").
    static func decode(_ bytes: [UInt8], numberingBy index: CardIndex? = nil) -> DailyTest? {
        // The header's seven lines, then the queue's, each ended by a newline; found with
        // `memchr` over the bytes, with no array of lines made.
        return bytes.withUnsafeBufferPointer { file -> DailyTest? in
            guard let base = file.baseAddress else { return nil }
            var at = 0
            func nextLine() -> UnsafeBufferPointer<UInt8>? {
                guard at < file.count, let newline = memchr(base + at, 0x0A, file.count - at) else { return nil }
                let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                defer { at = end + 1 }
                return UnsafeBufferPointer(rebasing: file[at..<end])
            }
            var header: [String] = []
            while header.count < 7, let line = nextLine() { header.append(String(decoding: line, as: UTF8.self)) }
            guard header.count == 7 else { return nil }
            func value(_ index: Int, _ key: String) -> String? {
                guard header[index].hasPrefix(key + " ") else { return nil }
                return String(header[index].dropFirst(key.count + 1))
            }
            guard header[0] == "leitner-test 1",
                  let position = value(1, "position").flatMap({ Int($0) }),
                  let levelText = value(2, "levels"),
                  let opened = value(3, "opened").flatMap({ LogicalDate($0) }),
                  let seed = value(4, "seed").flatMap({ UInt64($0) }),
                  let logOffset = value(5, "log").flatMap({ Int($0) }),
                  let count = value(6, "queue").flatMap({ Int($0) }), count >= 0 else { return nil }
            let levels = levelText.split(separator: ",").compactMap { Level(name: $0) }
            guard !levels.isEmpty else { return nil }
            // The queue's lines, each whole: a file cut short is no test file.
            var lines: [UnsafeBufferPointer<UInt8>] = []
            lines.reserveCapacity(min(count, file.count / 2))
            while lines.count < count, let line = nextLine() { lines.append(line) }
            guard lines.count == count else { return nil }
            if let index {
                return DailyTest(position: position, levels: levels, opened: opened, seed: seed,
                                 logOffset: logOffset, lines: lines, of: index)
            }
            return DailyTest(position: position, levels: levels, opened: opened, seed: seed,
                             logOffset: logOffset, queue: lines.map { String(decoding: $0, as: UTF8.self) })
        }
    }
}
