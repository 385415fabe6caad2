import Testing
import LeitnerSystem

@Suite struct PollTests {
    @Test func saysWhichDescriptorsAreReady() throws {
        let (a, b) = try Socket.makePair()
        let (c, d) = try Socket.makePair()
        defer { a.close(); b.close(); c.close(); d.close() }
        #expect(try Poll.readable([a, c], milliseconds: 10) == [false, false])
        try Socket.sendAll(d, [1])
        #expect(try Poll.readable([a, c], milliseconds: nil) == [false, true])
        b.close()
        // End of file is ready too: the reader finds out.
        #expect(try Poll.readable([a, c], milliseconds: 0) == [true, true])
    }
}
