import Glibc
import LeitnerSystem

/// The arguments after the program name. Under an `LD_PRELOAD` library such as libfaketime
/// (the day-change tests) the Swift runtime misses argv and `CommandLine.arguments` is empty:
/// the kernel's copy in `/proc/self/cmdline` is read then.
func programArguments() -> [String] {
    if !CommandLine.arguments.isEmpty { return Array(CommandLine.arguments.dropFirst()) }
    guard let bytes = try? FileSystem.readFile(atPath: "/proc/self/cmdline", limit: 1 << 20) else { return [] }
    let all = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    return Array(all.dropFirst().dropLast(bytes.last == 0 ? 1 : 0))
}

exit(Daemon.main(arguments: programArguments()))
