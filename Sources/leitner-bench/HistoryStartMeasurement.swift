import Glibc
import LeitnerSystem
import LeitnerVarlink

/// The first `Status` after a start of a store with a year of history beside the same start
/// without it (docs/performance.md, "Another device's history after a start"): three stores of
/// the same `cards` cards under `directory` — with no review log, with this device's log of
/// `lines` lines, and with that and another device's log of as many — each started by a leitnerd
/// of the same build in turns, a round at a time, the time from the daemon's launch to the first
/// `Status` answered. A first start of each, untimed, reads its history once and settles it, as a
/// synced machine has long done before the starts a person waits for.
enum HistoryStartMeasurement {
    static func run(directory: String, rounds: Int, cards: Int = 100_000, lines: Int = 1_000_000) throws {
        mkdir(directory, 0o755)
        let stores = [("no history", directory + "/bare", 0), ("this device's log", directory + "/own", 1),
                      ("and another device's", directory + "/peer", 2)]
        for (_, store, logs) in stores where access(store, F_OK) != 0 {
            try StoreBuilder.build(at: store, count: cards)
            if logs > 0 { try HistoryBuilder.build(at: store, cards: cards, lines: lines, settled: true) }
            if logs > 1 { try HistoryBuilder.build(at: store, cards: cards, lines: lines, device: SettleMeasurement.peer, settled: true, hour: 18) }
        }
        let settleAfter: Int64 = 1000
        let run = try FileDescriptor.openDirectory(directory)
        defer { run.close() }
        try FileSystem.writeAtomically(Array("[Sync]\nDevice=\(BenchDevice.name)\nSettleAfter=\(settleAfter)ms\n".utf8),
                                       to: "leitner.conf", in: run)
        let socket = directory + "/start.sock"
        /// Starts a daemon on `store`; the seconds to its first `Status` answered, after `then`.
        func start(_ store: String, then: (VarlinkClient) -> Void = { _ in }) throws -> Double {
            let begun = Timing.now()
            guard let daemon = BenchDaemon.start(store: store, configuration: directory + "/leitner.conf", socket: socket) else {
                throw BenchFailure("cannot start leitnerd on '\(store)'")
            }
            defer { daemon.stopAndWait() }
            let client = try VarlinkClient(socketPath: socket)
            for _ in 0..<600 {
                if (try? client.call("io.leitner.Box.Status")) != nil {
                    let time = Timing.now() - begun
                    then(client)
                    return time
                }
                usleep(100_000)
            }
            throw BenchFailure("no Status from '\(store)' in a minute")
        }
        for (name, store, _) in stores {
            // Until the other device's history is looked through and its marks are kept.
            let first = try start(store) { client in
                for _ in 0..<120 {
                    usleep(useconds_t(settleAfter * 1000 / 2))
                    _ = try? client.call("io.leitner.Box.Status")
                    if !store.hasSuffix("/peer") || access(store + "/.leitner/local.\(BenchDevice.name)/peers-read", F_OK) == 0 { return }
                }
            }
            print("history-start: \(name): the first start after the store was made \(Timing.ms(first))")
        }
        var times = [[Double]](repeating: [], count: stores.count)
        for _ in 0..<max(1, rounds) {
            for (index, (_, store, _)) in stores.enumerated() { times[index].append(try start(store)) }
        }
        let bare = Timing.percentile(times[0], 0.5)
        for (index, (name, _, _)) in stores.enumerated() {
            let median = Timing.percentile(times[index], 0.5)
            print("history-start: \(PrepareMeasurement.grouped(cards)) cards, \(name): first Status after a start, \(times[index].count) starts  "
                  + "min \(Timing.ms(times[index].min()!))  p50 \(Timing.ms(median))  max \(Timing.ms(times[index].max()!))  (\(Timing.ratio(median, bare)))")
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
