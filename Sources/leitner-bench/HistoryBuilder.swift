import Glibc
import LeitnerCore
import LeitnerSystem

/// Writes a year of review history into a built store: a day record of completed days up to
/// yesterday and a review log of `lines` lines — grades of the store's cards (about 85% right,
/// with answer times) and each day's completion — so that `Stats` has a log of a box in long use.
///
/// With `settled`, every grade leaves its card in the level the store builder put it in, and the
/// lines are dated `hour` o'clock on: a history that agrees with the store, so that another
/// device's log written so (`device`) leaves nothing to settle (docs/sync.md).
enum HistoryBuilder {
    static func build(at path: String, cards: Int, lines: Int, days: Int = 365, device: String = BenchDevice.name,
                      settled: Bool = false, hour: Int64 = 6) throws {
        // The device's log and day record (docs/store-format.md).
        let state = path + "/" + Box.stateDirectoryName + "/devices/" + device
        for directory in [path + "/" + Box.stateDirectoryName, path + "/" + Box.stateDirectoryName + "/devices", state] {
            mkdir(directory, 0o755)
        }
        let clock = DayClock()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let today = clock.logicalDate(at: Int64(now.tv_sec) * 1000)
        let first = today.adding(days: -days)
        let perDay = max(1, lines / days - 1)
        var random = SystemRandomNumberGenerator()
        var log: [UInt8] = []
        log.reserveCapacity(lines * 72)
        var record = ""
        var written = 0
        for day in 0..<days where written < lines {
            let date = first.adding(days: day)
            let start = clock.start(of: date) + hour * 3_600_000
            for index in 0..<perDay where written < lines - 1 {
                let card = Int.random(in: 0..<cards, using: &random)
                // The builder's levels: card k is in level min(8, trailing zeros of k + 1) + 1.
                var level = Level(rawValue: min(7, (card + 1).trailingZeroBitCount + 1))!
                var correct = Int.random(in: 0..<100, using: &random) < 85
                var to = correct ? level.promoted : .one
                if settled {
                    // Into its level: from the one below, or from level 2 for a card in level 1.
                    to = StoreBuilder.level(ofCard: card)
                    correct = to != .one
                    level = Level(rawValue: correct ? to.rawValue - 1 : 2)!
                }
                let line = "\(DayClock.rfc3339(start + Int64(index) * 1000))\tgrade\tcard-\(card)-benchmark\t\(level.name)\t\(to.name)\t\(correct ? "correct" : "wrong")\t\(Int.random(in: 800..<9000, using: &random))\n"
                log.append(contentsOf: line.utf8)
                written += 1
            }
            log.append(contentsOf: "\(DayClock.rfc3339(start + Int64(perDay) * 1000))\tcomplete\t-\t-\t-\t-\t-\tdate=\(date)\n".utf8)
            written += 1
            record += "\(date) completed\n"
        }
        let directory = try FileDescriptor.openDirectory(state)
        defer { directory.close() }
        try FileSystem.writeAtomically(log, to: "log", in: directory)
        try FileSystem.writeAtomically(Array(record.utf8), to: "days", in: directory)
    }
}
