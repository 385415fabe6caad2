import Glibc

extension ChildProcess {
    /// Runs `program` (looked up on `PATH`) with `arguments` and waits for it: standard input
    /// from `/dev/null`, standard output collected, standard error thrown away, every signal
    /// unblocked and at its default. leitnerctl runs `chafa` this way to turn an image into
    /// sixels or coloured blocks.
    /// - Parameter limit: the most output kept; the rest is read and dropped, so the child
    ///   never blocks on a full pipe.
    /// - Returns: how the child ended and what it wrote.
    /// - Throws: `Errno`; `ENOENT` when the program is not on `PATH`.
    public static func output(of program: String, arguments: [String], limit: Int = 64 << 20)
        throws(Errno) -> (termination: Termination, output: [UInt8]) {
        var ends: [Int32] = [0, 0]
        try nothingOrErrno { pipe(&ends) }
        // Close-on-exec (pipe2 is not in Swift's Glibc): no other child inherits the pipe.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let reader = FileDescriptor(rawValue: ends[0])
        defer { reader.close() }

        let pid: pid_t
        do {
            pid = try spawn(program, arguments: arguments, searchPath: true, input: .null,
                            output: .descriptor(ends[1]), error: .null)
        } catch {
            Glibc.close(ends[1])
            throw error
        }
        Glibc.close(ends[1])

        var output: [UInt8] = []
        while true {
            let chunk: [UInt8]
            do {
                chunk = try reader.read(upTo: 65536)
            } catch where error == .interrupted {
                continue
            } catch {
                break
            }
            if chunk.isEmpty { break }
            if output.count < limit { output += chunk.prefix(limit - output.count) }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return (signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal), output)
    }
}
