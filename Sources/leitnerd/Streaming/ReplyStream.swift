import LeitnerSystem

/// What a connection sends a streamed reply by, whatever its items (`StreamedReply`).
protocol ReplyStream: AnyObject {
    /// The next frame to send — or, of a reply sent in pieces, the next piece of it; nil once
    /// the last one has been given.
    /// - Parameter wake: the connection's doorbell, for its waits at the box.
    func nextFrame(wake: Wake) -> [UInt8]?
    /// True once the last frame has been given.
    var isComplete: Bool { get }
    /// True between two pieces of one message, where no other reply may be sent.
    var isMidMessage: Bool { get }
}
