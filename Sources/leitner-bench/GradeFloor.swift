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
///   reply, with the client blocked in `recv` as leitnerctl is;
/// - **round trip, full directories**: the same, the directory renamed between two that hold as
///   many entries as the store's levels the grades moved cards between. A rename takes the name
///   out of one directory's index and puts it into the other's, which costs more among thousands
///   of names than between two empty directories (docs/daemon.md, "Durable Grade"): this floor
///   is the one a grade in the store's format is set beside; the empty one is kept beside it to
///   show what the directories' sizes cost.
///
/// Messages are the sizes of a real `Grade` (77 bytes) and its reply (374 bytes).
enum GradeFloor {
    struct Figures {
        var inProcess: [Double]
        var pingPong: [Double]
        var roundTrip: [Double]
        /// Nil when no sizes were given.
        var roundTripFull: [Double]?
    }

    static let requestSize = 77
    static let replySize = 374

    /// - Parameter entries: the entries of the two directories of the full round trip (the card
    ///   renamed between them not counted); nil to leave that floor out.
    static func measure(in directory: String, samples: Int, entries: (from: Int, to: Int)? = nil) throws -> Figures {
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
        let roundTrip = try renamingRoundTrips(in: directory + "/rt", file: file, line: line, samples: samples, entries: (0, 0))
        let full = try entries.map { entries in
            try renamingRoundTrips(in: directory + "/rt-full", file: file, line: line, samples: samples, entries: entries)
        }
        return Figures(inProcess: inProcess, pingPong: pingPong, roundTrip: roundTrip, roundTripFull: full)
    }

    /// Round trips whose answer waits for a line written over `file` and synced, and a directory
    /// renamed between `PREFIX-a` and `PREFIX-b`, made with `entries` other directories each
    /// (named as the store's cards are) and removed after.
    private static func renamingRoundTrips(in prefix: String, file: FileDescriptor, line: [UInt8], samples: Int,
                                           entries: (from: Int, to: Int)) throws -> [Double] {
        let sides = [(prefix + "-a", entries.from), (prefix + "-b", entries.to)]
        for (side, count) in sides {
            mkdir(side, 0o755)
            for number in 0..<count { mkdir(side + "/card-\(number)-floor", 0o755) }
        }
        mkdir(prefix + "-a/card", 0o755)
        defer {
            for (side, count) in sides {
                for number in 0..<count { rmdir(side + "/card-\(number)-floor") }
                rmdir(side + "/card")
                rmdir(side)
            }
        }
        var sample = 0
        var inA = true
        return try roundTrips(samples: samples) { () throws(Errno) in
            try file.writeAll(line, at: sample * line.count)
            try file.syncData()
            rename(prefix + (inA ? "-a/card" : "-b/card"), prefix + (inA ? "-b/card" : "-a/card"))
            inA.toggle()
            sample += 1
        }
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
