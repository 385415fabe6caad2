import Glibc
import LeitnerSystem
import LeitnerWeb

/// `--devices` and `--revoke NAME`: the paired devices from the command line. They change the
/// same file the running server reads, which sees the change at its next request.
enum DeviceCommands {
    static func run(_ options: WebOptions, devices: DeviceBook) -> Int32 {
        do {
            if let name = options.revoke {
                guard let device = try devices.revoke(name) else {
                    WebLog.error("no paired device is called '\(name)' (leitnerctl web --devices lists them)")
                    return ExitStatus.failure
                }
                print("Revoked '\(device.name)': its browser is let out at its next request.")
                return 0
            }
            let all = try devices.devices()
            if all.isEmpty {
                print("No device is paired: open the link that 'leitnerctl web' prints.")
            }
            for device in all {
                print("\(device.name)\tpaired \(day(device.paired))\tlast seen \(day(device.lastSeen))")
            }
            return 0
        } catch {
            WebLog.error("\(error)")
            return ExitStatus.failure
        }
    }

    /// The UTC date of `seconds` since the epoch, as YYYY-MM-DD.
    static func day(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }
}
