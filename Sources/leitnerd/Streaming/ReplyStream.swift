import LeitnerSystem

/// What a connection sends a streamed reply by, whatever its items (`StreamedReply`).
protocol ReplyStream: AnyObject {
    /// The next frame to send — or, of a reply sent in pieces, the next piece of it; nil once
    /// the last one has been given.
    /// - Parameters:
    ///   - wake: the connection's doorbell, for its waits at the box.
    ///   - peerClosed: whether the client has closed the connection, asked before each batch
    ///     read under the box's turn: once it has, the stream ends without reading it (nil).
    func nextFrame(wake: Wake, peerClosed: () -> Bool) -> [UInt8]?
    /// True once the last frame has been given.
    var isComplete: Bool { get }
    /// True between two pieces of one message, where no other reply may be sent.
    var isMidMessage: Bool { get }
    /// True once the stream ended because the client had closed the connection.
    var wasAbandoned: Bool { get }
}
