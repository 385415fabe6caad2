import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// `Stats` on an open box: the first call reads the whole review log; the next ones take in
/// only what was appended since (warm), as the daemon serves them. Each includes the reply's JSON.
enum StatsMeasurement {
    static func run(_ box: Box, logLines: Int) throws {
        var bytes = 0
        let first = try Timing.secondsThrowing { bytes = try box.statistics(window: nil, leeches: nil).json.serialized.count }
        print("box: stats, first (reads the \(logLines)-line log)  \(Timing.ms(first))  (reply \(bytes / 1024) KiB)")
        let warm = try (0..<30).map { _ in
            try Timing.secondsThrowing { _ = try box.statistics(window: nil, leeches: nil).json.serialized }
        }
        print("box: stats, warm                  p50 \(Timing.ms(Timing.percentile(warm, 0.5)))  p99 \(Timing.ms(Timing.percentile(warm, 0.99)))")
        let wide = try (0..<10).map { _ in
            try Timing.secondsThrowing { _ = try box.statistics(window: 365, leeches: 100).json.serialized }
        }
        print("box: stats --days 365 --leeches 100  p50 \(Timing.ms(Timing.percentile(wide, 0.5)))")
    }
}
