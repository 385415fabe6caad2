import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// Round trips to a running leitnerd as `leitnerctl review` makes them, with its own client
/// (`VarlinkClient`, Swift): `Status`, and `Grade` right after the `Next` that showed the card.
/// bench/daemon.py runs it beside its Python clients; only the calls themselves are timed.
enum ClientMeasurement {
    static func run(socket: String, grades: Int) throws {
        let client = try VarlinkClient(socketPath: socket)
        let statusTimes = try (0..<1000).map { _ in
            try Timing.secondsThrowing { _ = try client.call("io.leitner.Box.Status") }
        }
        // The cards in each level before the grades, for the floor that renames between
        // directories of the store's sizes.
        var counts: [String: Int] = [:]
        if case .object(let levels)? = try client.call("io.leitner.Box.Status")["counts"] {
            for case (let level, .int(let count)) in levels { counts[level] = Int(count) }
        }
        var gradeTimes: [Double] = []
        var gradedLevels: [String: Int] = [:]
        for _ in 0..<grades {
            guard case .object(let card)? = try client.call("io.leitner.Box.Next")["card"],
                  case .string(let id)? = card["id"] else { break }
            if case .string(let level)? = card["level"] { gradedLevels[level, default: 0] += 1 }
            gradeTimes.append(try Timing.secondsThrowing {
                _ = try client.call("io.leitner.Box.Grade", ["id": .string(id), "correct": .bool(true)])
            })
        }
        print("Status  1 client, Swift: p50 \(micro(Timing.percentile(statusTimes, 0.5)))  p99 \(micro(Timing.percentile(statusTimes, 0.99)))")
        guard !gradeTimes.isEmpty else { return }
        let grade = Timing.percentile(gradeTimes, 0.5)
        print("Grade   1 client, Swift, after Next: p50 \(micro(grade))  p99 \(micro(Timing.percentile(gradeTimes, 0.99)))  (durable)")
        // The floors, measured now, on the store's file system (the socket sits beside the store).
        let directory = socket.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        // A right answer moves a card up a level: the move most grades made, from its level's size to the next's.
        let from = gradedLevels.max { $0.value < $1.value }?.key
        let to = from.flatMap(Int.init).map { $0 == 7 ? "finished" : String($0 + 1) }
        let entries = from.map { (from: counts[$0] ?? 0, to: to.flatMap { counts[$0] } ?? 0) }
        let floor = try GradeFloor.measure(in: directory.isEmpty ? "." : directory, samples: gradeTimes.count, entries: entries)
        let inProcess = Timing.percentile(floor.inProcess, 0.5)
        let roundTrip = Timing.percentile(floor.roundTrip, 0.5)
        print("Floor   overwrite + fdatasync + rename, in-process: p50 \(micro(inProcess))  p99 \(micro(Timing.percentile(floor.inProcess, 0.99)))"
              + "  (Grade \(Timing.ratio(grade, inProcess)))")
        print("Floor   socket ping-pong between two processes:    p50 \(micro(Timing.percentile(floor.pingPong, 0.5)))  p99 \(micro(Timing.percentile(floor.pingPong, 0.99)))")
        print("Floor   the two together (a process that syncs, renames, then answers): p50 \(micro(roundTrip))"
              + "  p99 \(micro(Timing.percentile(floor.roundTrip, 0.99)))  (Grade \(Timing.ratio(grade, roundTrip)))")
        if let full = floor.roundTripFull, let entries, let from, let to {
            let median = Timing.percentile(full, 0.5)
            print("Floor   the same, renamed from a directory of \(entries.from) entries to one of \(entries.to) (levels \(from) and \(to), as most grades): "
                  + "p50 \(micro(median))  p99 \(micro(Timing.percentile(full, 0.99)))  (Grade \(Timing.ratio(grade, median)); \(Timing.ratio(median, roundTrip)) the empty directories' floor)")
        }
    }

    private static func micro(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10_000_000).rounded())
        let text = "\(tenths / 10).\(tenths % 10) µs"
        return String(repeating: " ", count: max(0, 10 - text.count)) + text
    }
}
