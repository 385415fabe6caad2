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
        var gradeTimes: [Double] = []
        for _ in 0..<grades {
            guard case .object(let card)? = try client.call("io.leitner.Box.Next")["card"],
                  case .string(let id)? = card["id"] else { break }
            gradeTimes.append(try Timing.secondsThrowing {
                _ = try client.call("io.leitner.Box.Grade", ["id": .string(id), "correct": .bool(true)])
            })
        }
        print("Status  1 client, Swift: p50 \(micro(Timing.percentile(statusTimes, 0.5)))  p99 \(micro(Timing.percentile(statusTimes, 0.99)))")
        guard !gradeTimes.isEmpty else { return }
        print("Grade   1 client, Swift, after Next: p50 \(micro(Timing.percentile(gradeTimes, 0.5)))  p99 \(micro(Timing.percentile(gradeTimes, 0.99)))  (durable)")
    }

    private static func micro(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10_000_000).rounded())
        let text = "\(tenths / 10).\(tenths % 10) µs"
        return String(repeating: " ", count: max(0, 10 - text.count)) + text
    }
}
