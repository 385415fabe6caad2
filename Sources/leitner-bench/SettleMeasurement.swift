import Glibc
import LeitnerCore
import LeitnerSystem
import LeitnerVarlink

/// `Status` while a sync tool's delivery settles (docs/performance.md, "Another device's history
/// after a start"), beside the same `Status` with nothing to settle, through a leitnerd of the
/// same build (its tick settles while nobody asks), in one run. The store: `cards` cards, this
/// device's log and another device's (`peer`) of `lines` lines each, both agreeing with where the
/// cards are. A delivery is what a sync tool brings when the other device graded a few cards:
/// lines appended to its log, and the cards' folders moved. Each round delivers one, then asks
/// `Status` every 20 ms until the store has been quiet for `settleAfter` (`SettleAfter=`,
/// docs/sync.md) and a while longer, so that the settling falls among the calls timed.
enum SettleMeasurement {
    static let peer = "other"

    static func run(store: String, rounds: Int, settleAfter: Int64, cards: Int = 100_000, lines: Int = 1_000_000) throws {
        if access(store, F_OK) != 0 {
            try StoreBuilder.build(at: store, count: cards)
            try HistoryBuilder.build(at: store, cards: cards, lines: lines, settled: true)
            try HistoryBuilder.build(at: store, cards: cards, lines: lines, device: peer, settled: true, hour: 18)
        }
        let directory = store + ".run"
        mkdir(directory, 0o755)
        let run = try FileDescriptor.openDirectory(directory)
        defer { run.close() }
        try FileSystem.writeAtomically(Array("[Sync]\nDevice=\(BenchDevice.name)\nSettleAfter=\(settleAfter)ms\n".utf8),
                                       to: "leitner.conf", in: run)
        let socket = directory + "/settle.sock"
        guard let daemon = BenchDaemon.start(store: store, configuration: directory + "/leitner.conf", socket: socket) else {
            complain("cannot start leitnerd")
            return
        }
        // Until it has exited: the next run on this store takes its lock.
        defer { daemon.stopAndWait() }
        let client = try VarlinkClient(socketPath: socket)
        // The history the other device's log names is settled once: its read marks are kept
        // (`peers-read`), and a later run on this store starts from them. A call that waits for
        // that first pass longer than the daemon lets it is answered "busy": asked again.
        func status() -> Double? {
            let start = Timing.now()
            guard (try? client.call("io.leitner.Box.Status")) != nil else { return nil }
            return Timing.now() - start
        }
        /// Until the first answer: each call answered busy is made again (a `where` clause here
        /// made all 600 calls, answered or not, and timed them as one).
        func answered() -> Double {
            let start = Timing.now()
            for _ in 0..<600 {
                if status() != nil { break }
                usleep(100_000)
            }
            return Timing.now() - start
        }
        let opening = answered()
        usleep(useconds_t(settleAfter * 1000 + 500_000))
        let firstPass = answered()
        print("settle: \(PrepareMeasurement.grouped(cards)) cards, \(PrepareMeasurement.grouped(lines)) lines in this device's log and in '\(peer)''s, "
              + "SettleAfter=\(settleAfter) ms; the first Status \(Timing.ms(opening)), the first once the store was quiet \(Timing.ms(firstPass))")

        var random = SystemRandomNumberGenerator()
        var quiet: [Double] = [], settling: [Double] = [], busy = 0
        // Where the slowest quiet call fell (round, call): an outlier says which work it waited for.
        var slowest = (time: 0.0, round: 0, call: 0)
        for round in 0..<max(1, rounds) {
            for call in 0..<20 {
                guard let time = status() else { continue }
                quiet.append(time)
                if time > slowest.time { slowest = (time, round + 1, call + 1) }
            }
            try deliver(into: store, cards: cards, count: 5, using: &random)
            let end = Timing.now() + Double(settleAfter) / 1000 + 1.5
            while Timing.now() < end {
                if let time = status() { settling.append(time) } else { busy += 1 }
                usleep(20_000)
            }
        }
        func spread(_ samples: [Double]) -> String {
            "p50 \(Timing.ms(Timing.percentile(samples, 0.5)))  p99 \(Timing.ms(Timing.percentile(samples, 0.99)))  max \(Timing.ms(samples.max()!))"
        }
        print("settle: Status, nothing to settle (\(quiet.count) calls)                \(spread(quiet))  (the slowest: round \(slowest.round), call \(slowest.call))")
        print("settle: Status from each delivery of 5 cards until settled (\(settling.count) calls, \(busy) answered busy)  \(spread(settling))")
    }

    /// A delivery of the other device's grades of `count` cards: its lines appended to its log,
    /// then each card's folder moved to the level its grade put it in, as a sync tool brings them.
    private static func deliver(into store: String, cards: Int, count: Int, using random: inout SystemRandomNumberGenerator) throws {
        let now = SystemClock().now()
        var moves: [(id: String, from: Level, to: Level)] = []
        while moves.count < count {
            let id = "card-\(Int.random(in: 0..<cards, using: &random))-benchmark"
            guard !moves.contains(where: { $0.id == id }),
                  let from = Level.levels.first(where: { access("\(store)/\($0.name)/\(id)", F_OK) == 0 }) else { continue }
            moves.append((id, from, from == .finished ? .one : from.promoted))
        }
        var text = ""
        for (index, move) in moves.enumerated() {
            let correct = move.to != .one
            text += "\(DayClock.rfc3339(now - 1000 + Int64(index)))\tgrade\t\(move.id)\t\(move.from.name)\t\(move.to.name)\t\(correct ? "correct" : "wrong")\t2500\n"
        }
        let log = try FileDescriptor.open("\(store)/\(Box.stateDirectoryName)/devices/\(peer)/log", flags: O_WRONLY | O_APPEND)
        defer { log.close() }
        try log.writeAll(Array(text.utf8))
        for move in moves where rename("\(store)/\(move.from.name)/\(move.id)", "\(store)/\(move.to.name)/\(move.id)") != 0 {
            throw Errno.current
        }
    }
}
