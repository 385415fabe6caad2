import Glibc
import LeitnerSystem

/// Wall-clock timing and percentiles.
enum Timing {
    static func now() -> Double { MonotonicTime.now.seconds }

    static func seconds(_ body: () -> Void) -> Double {
        let start = now()
        body()
        return now() - start
    }

    static func secondsThrowing(_ body: () throws -> Void) throws -> Double {
        let start = now()
        try body()
        return now() - start
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    static func ms(_ seconds: Double) -> String {
        // A difference of two figures may be below zero: the sign once, before the digits.
        let hundredths = Int((abs(seconds) * 1000 * 100).rounded())
        let fraction = hundredths % 100
        return "\(seconds < 0 && hundredths > 0 ? "-" : "")\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    /// `a / b` as "2.4×".
    static func ratio(_ a: Double, _ b: Double) -> String {
        guard b > 0 else { return "?×" }
        let tenths = Int((a / b * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)×"
    }

    /// This process's resident and peak resident memory in KiB, from /proc/self/status.
    static func memory() -> (rss: Int, peak: Int) {
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/self/status") else { return (0, 0) }
        var rss = 0, peak = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if line.hasPrefix("VmRSS:"), parts.count >= 2 { rss = Int(parts[1]) ?? 0 }
            if line.hasPrefix("VmHWM:"), parts.count >= 2 { peak = Int(parts[1]) ?? 0 }
        }
        return (rss, peak)
    }
}
