import Glibc
import Testing
import LeitnerSystem
import LeitnerTestSupport

@Suite struct SignalDescriptorTests {
    /// A blocked signal stays pending and is read from the descriptor, with nothing else happening.
    @Test func readsABlockedSignal() throws {
        // Only this thread's mask is changed, and restored: the signal is raised at this thread.
        try withSignalBlockedOnThisThread(SIGUSR2) { () throws in
            let signals = try SignalDescriptor(signals: [SIGUSR2])
            defer { signals.close() }
            #expect(try signals.next() == nil)
            #expect(try Poll.readable([signals.descriptor], milliseconds: 0) == [false])
            raise(SIGUSR2)
            #expect(try Poll.readable([signals.descriptor], milliseconds: 1000) == [true])
            #expect(try signals.next() == SIGUSR2)
            #expect(try signals.next() == nil)
        }
    }
}
