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
    static func decode(_ bytes: [UInt8]) -> DailyTest? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 8 else { return nil }
        func value(_ index: Int, _ key: String) -> String? {
            let line = String(decoding: lines[index], as: UTF8.self)
            guard line.hasPrefix(key + " ") else { return nil }
            return String(line.dropFirst(key.count + 1))
        }
        guard String(decoding: lines[0], as: UTF8.self) == "leitner-test 1",
              let position = value(1, "position").flatMap({ Int($0) }),
              let levelText = value(2, "levels"),
              let opened = value(3, "opened").flatMap({ LogicalDate($0) }),
              let seed = value(4, "seed").flatMap({ UInt64($0) }),
              let logOffset = value(5, "log").flatMap({ Int($0) }),
              let count = value(6, "queue").flatMap({ Int($0) }),
              lines.count >= 7 + count + 1 else { return nil }
        let levels = levelText.split(separator: ",").compactMap { Level(name: $0) }
        guard !levels.isEmpty else { return nil }
        let queue = lines[7..<(7 + count)].map { String(decoding: $0, as: UTF8.self) }
        return DailyTest(position: position, levels: levels, opened: opened, seed: seed,
                         logOffset: logOffset, queue: queue)
    }
}
