import Glibc
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// `ChildProcess.spawn`, the one `posix_spawn` of the programs: a child gets its three standard
/// descriptors and none other of the caller's, even one opened without close-on-exec.
@Suite struct ChildProcessTests {
    @Test func aChildInheritsNoDescriptorAboveStandardError() throws {
        let leaked = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: what a caller may be handed
        #expect(leaked > 2)
        defer { close(leaked) }
        let (termination, output) = try ChildProcess.output(of: "sh", arguments: ["-c", "ls /proc/$$/fd"])
        #expect(termination == .exited(0))
        let open = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(open.contains(1))
        #expect(!open.contains(leaked), "\(open)")
    }

    @Test func redirectsAndTheEnvironmentReachTheChild() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path + "/log"
        let pid = try ChildProcess.spawn("/bin/sh", arguments: ["-c", "echo \"$GREETING\" >&2; cat"], input: .null,
                                         output: .null, error: .appending(to: log),
                                         environment: ChildProcess.environment(replacing: ["GREETING": "hallo"]))
        #expect(try ChildProcess.wait(for: pid) == .exited(0))
        #expect(String(decoding: try FileSystem.readFile(atPath: log), as: UTF8.self) == "hallo\n")
    }

    @Test func aMissingProgramIsNoEntry() {
        #expect(throws: Errno.noEntry) { try ChildProcess.spawn("/nonexistent/program", arguments: []) }
    }
}
