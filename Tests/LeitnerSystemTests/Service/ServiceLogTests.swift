import Glibc
import Testing
import LeitnerSystem
import LeitnerTestSupport

@Suite struct ServiceLogTests {
    @Test func eachStyleWritesItsOwnLine() {
        let stamp: @Sendable () -> String = { "2026-11-28T10:00:00+01:00" }
        func log(_ style: ServiceLog.Style) -> ServiceLog {
            ServiceLog(program: "leitnerd", clock: stamp, descriptor: FileDescriptor(rawValue: 2), style: style)
        }
        #expect(log(.journal).line(.warning, "cannot accept") == "<4>cannot accept\n")
        #expect(log(.plain).line(.info, "stopped") == "leitnerd: stopped\n")
        #expect(log(.file).line(.error, "stopped") == "2026-11-28T10:00:00+01:00 leitnerd: stopped\n")
        // Without a clock a file gets the plain line.
        let unclocked = ServiceLog(program: "leitner-web", clock: nil, descriptor: FileDescriptor(rawValue: 2), style: .file)
        #expect(unclocked.line(.info, "serving") == "leitner-web: serving\n")
    }

    @Test func aMessageNeverSpansLines() {
        let log = ServiceLog(program: "leitner-web", clock: nil, descriptor: FileDescriptor(rawValue: 2), style: .plain)
        // A client's text with newlines (blank lines too) cannot forge a line of its own.
        #expect(log.line(.warning, "bad\n\n<3>forged") == "leitner-web: bad\\n\\n<3>forged\n")
    }

    @Test func theJournalIsRecognisedByItsDeviceAndInode() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("log", "")
        let file = try FileDescriptor.open(directory.path + "/log", flags: O_WRONLY | O_APPEND)
        defer { file.close() }
        let identity = try file.identity()
        #expect(ServiceLog.Style.of(file, journalStream: "\(identity.device):\(identity.inode)") == .journal)
        // Another stream's identity, or a malformed value, is not the journal.
        #expect(ServiceLog.Style.of(file, journalStream: "\(identity.device):\(identity.inode + 1)") == .file)
        #expect(ServiceLog.Style.of(file, journalStream: "journal") == .file)
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        #expect(ServiceLog.Style.of(a, journalStream: nil) == .plain)
    }

    @Test func writesWholeLinesToItsDescriptor() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        let log = ServiceLog(program: "leitnerd", clock: nil, descriptor: a, style: .plain)
        log.notice("removed stale socket '/run/x'")
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = try bytes.withUnsafeMutableBytes { try Socket.receive(b, into: $0) }
        #expect(String(decoding: bytes[..<count], as: UTF8.self) == "leitnerd: removed stale socket '/run/x'\n")
    }

    @Test func durationsReadAsTheLogWritesThem() {
        #expect(Duration.milliseconds(250).logDescription == "250 ms")
        #expect(Duration.seconds(30).logDescription == "30 s")
        #expect(Duration.milliseconds(1500).logDescription == "1.5 s")
    }
}
