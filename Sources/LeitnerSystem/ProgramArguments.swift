/// The arguments a program was started with, after its name. Under an `LD_PRELOAD` library
/// such as libfaketime (`faketime -f +1d leitnerctl status`, the day-change tests) the Swift
/// runtime misses argv and `CommandLine.arguments` is empty: the kernel's copy in
/// `/proc/self/cmdline` is read then. Without it leitnerctl took `faketime … leitnerctl --json
/// show ID` for a bare `leitnerctl` and started a daemon on the default store (#25).
public enum ProgramArguments {
    public static func current() -> [String] {
        if !CommandLine.arguments.isEmpty { return Array(CommandLine.arguments.dropFirst()) }
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/self/cmdline", limit: 1 << 20) else { return [] }
        let all = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        return Array(all.dropFirst().dropLast(bytes.last == 0 ? 1 : 0))
    }
}
