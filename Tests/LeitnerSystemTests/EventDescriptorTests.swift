import Glibc
import Testing
import LeitnerSystem

@Suite struct EventDescriptorTests {
    @Test func readableFromARingUntilDrained() throws {
        let event = try EventDescriptor()
        defer { event.close() }
        #expect(try Poll.readable([event.descriptor], milliseconds: 0) == [false])
        // Rings before the wait are not lost, and several count as one wake-up.
        event.signal()
        event.signal()
        #expect(try Poll.readable([event.descriptor], milliseconds: 0) == [true])
        event.drain()
        #expect(try Poll.readable([event.descriptor], milliseconds: 0) == [false])
        event.drain() // nothing to take: no error, no wait
    }

    @Test func isCloseOnExec() throws {
        let event = try EventDescriptor()
        defer { event.close() }
        #expect(fcntl(event.descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }
}
