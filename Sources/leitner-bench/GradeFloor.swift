import Glibc
import LeitnerSystem

/// The floors a durable `Grade` round trip is set beside (issue #30; docs/daemon.md,
/// "Performance"), measured in the same run as the grades:
///
/// - **in-process**: a record written over a preallocated file, `fdatasync`, and a directory
///   renamed between two others — what a grade must do on the disk (R17, R18), with nothing
///   else (`Floors.sync`);
/// - **ping-pong**: a request over a Unix socket pair to another process that answers at once —
///   the two wake-ups every daemon pays, and nothing of the disk;
/// - **round trip**: the two together, the other process doing the in-process work before it
///   answers — the least any daemon can take for a grade that is durable and renamed before its
///   reply, with the client blocked in `recv` as leitnerctl is.
///
/// Messages are the sizes of a real `Grade` (77 bytes) and its reply (374 bytes).
enum GradeFloor {
    struct Figures {
        var inProcess: [Double]
        var pingPong: [Double]
        var roundTrip: [Double]
    }

    static let requestSize = 77
    static let replySize = 374

    static func measure(in directory: String, samples: Int) throws -> Figures {
        let inProcess = try Floors.sync(.overwrite, renaming: true, in: directory, samples: samples)
        let pingPong = try roundTrips(samples: samples, work: nil)
        let journal = directory + "/floor-round-trip-journal"
        unlink(journal)
        let file = try FileDescriptor.open(journal, flags: O_RDWR | O_CREAT)
        defer {
            file.close()
            unlink(journal)
        }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 64)
        try file.writeAll([UInt8](repeating: 0, count: line.count * samples))
        try file.sync()
        mkdir(directory + "/rt-a", 0o755)
        mkdir(directory + "/rt-b", 0o755)
        mkdir(directory + "/rt-a/card", 0o755)
        var sample = 0
        var inA = true
        let roundTrip = try roundTrips(samples: samples) { () throws(Errno) in
            try file.writeAll(line, at: sample * line.count)
            try file.syncData()
            rename(directory + (inA ? "/rt-a/card" : "/rt-b/card"), directory + (inA ? "/rt-b/card" : "/rt-a/card"))
            inA.toggle()
            sample += 1
        }
        return Figures(inProcess: inProcess, pingPong: pingPong, roundTrip: roundTrip)
    }

    /// `samples` requests from this process to a child process over a socket pair, each
    /// answered after `work` (at once when nil); per-call durations in seconds. A process, not a
    /// thread: two threads of one process ping-pong on one CPU (7 µs here), which a client and a
    /// daemon, two processes, do not (60–70 µs for `Status`).
    private static func roundTrips(samples: Int, work: (() throws(Errno) -> Void)?) throws -> [Double] {
        let (client, server) = try Socket.makePair()
        let child = fork()
        if child < 0 { throw Errno(rawValue: errno) }
        if child == 0 {
            client.close()
            var request = [UInt8](repeating: 0, count: requestSize)
            let reply = [UInt8](repeating: UInt8(ascii: "r"), count: replySize)
            while (try? readExactly(server, into: &request)) == true {
                do {
                    try work?()
                    try Socket.sendAll(server, reply)
                } catch {
                    _exit(1)
                }
            }
            _exit(0)
        }
        server.close()
        defer {
            client.close()
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        let request = [UInt8](repeating: UInt8(ascii: "q"), count: requestSize)
        var reply = [UInt8](repeating: 0, count: replySize)
        return try (0..<samples).map { _ in
            try Timing.secondsThrowing {
                try Socket.sendAll(client, request)
                guard try readExactly(client, into: &reply) else { throw Errno(rawValue: ECONNRESET) }
            }
        }
    }

    /// Fills `buffer` from `socket`; false when the peer closed first.
    private static func readExactly(_ socket: FileDescriptor, into buffer: inout [UInt8]) throws -> Bool {
        var filled = 0
        while filled < buffer.count {
            let n = try buffer.withUnsafeMutableBytes { raw in
                try Socket.receive(socket, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if n == 0 { return false }
            filled += n
        }
        return true
    }
}
