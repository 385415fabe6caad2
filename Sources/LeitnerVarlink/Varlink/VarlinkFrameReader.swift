import Glibc
import LeitnerSystem

/// Splits the byte stream of a Varlink connection into messages: each message is a JSON object
/// ended by a NUL byte (docs/protocol.md). Bytes arrive in any chunks; `nextMessage()` yields each complete
/// message without its NUL, in order.
///
/// A message longer than `maxMessageSize` is refused as soon as the buffered part of it exceeds
/// the limit, before its NUL arrives, so that a client cannot make the daemon buffer without end.
/// After `tooLarge` the stream cannot be resynchronised: the connection is to be closed (docs/protocol.md).
///
/// Memory: `nextMessage(_:)` lends a message to its reader in place (no copy), and once the
/// buffer has been read out, storage beyond `retainedCapacity` is freed, so a connection that
/// received one large message does not keep its buffer for the rest of its life.
public struct VarlinkFrameReader: Sendable {
    /// The default limit: 16 MiB, room for a card whose assets (base64) are large images or audio.
    public static let defaultMaxMessageSize = 16 << 20

    /// The storage kept between messages (what a connection keeps for its small calls).
    public static let defaultRetainedCapacity = 64 << 10

    /// The longest message accepted, in bytes, without its NUL.
    public let maxMessageSize: Int

    /// The most storage kept once the buffered bytes have been read out.
    public let retainedCapacity: Int

    private var buffer: [UInt8] = []
    /// Where the first unread message starts in `buffer`.
    private var start = 0
    /// How many bytes after `start` are known to hold no NUL (not searched again).
    private var scanned = 0

    /// - Parameters:
    ///   - maxMessageSize: the longest message accepted, in bytes, without its NUL.
    ///   - retainedCapacity: the most storage kept once everything buffered has been read.
    public init(maxMessageSize: Int = VarlinkFrameReader.defaultMaxMessageSize,
                retainedCapacity: Int = VarlinkFrameReader.defaultRetainedCapacity) {
        precondition(maxMessageSize > 0, "a Varlink message limit must be positive")
        self.maxMessageSize = maxMessageSize
        self.retainedCapacity = retainedCapacity
    }

    /// Bytes received and not yet returned as a message: non-zero at end of file means the peer
    /// closed the connection in the middle of a message.
    public var pendingByteCount: Int { buffer.count - start }

    /// The bytes of storage the buffer holds now.
    public var capacity: Int { buffer.capacity }

    /// Makes room for `byteCount` pending bytes in one allocation, so that a long message is not
    /// copied each time the buffer grows (a copy that would double its memory for an instant).
    public mutating func reserveCapacity(forPending byteCount: Int) {
        compact()
        if buffer.capacity < start + byteCount { buffer.reserveCapacity(start + byteCount) }
    }

    /// Adds bytes as they came from the connection.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes as they came from the connection.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Receives what the socket has (one `recv`, up to `chunkSize` bytes) and adds it.
    /// - Parameter chunkSize: the most bytes taken, at least 1: what the caller has room for.
    /// - Returns: the number of bytes received; 0 means the peer closed its end.
    /// - Throws: `Errno` from `recv`; `EAGAIN` on a timeout or an empty non-blocking socket.
    public mutating func receive(from socket: FileDescriptor, chunkSize: Int = 1 << 16) throws(Errno) -> Int {
        let result = withUnsafeTemporaryAllocation(byteCount: max(1, chunkSize), alignment: 1) { chunk -> Result<Int, Errno> in
            do throws(Errno) {
                let n = try Socket.receive(socket, into: chunk)
                append(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
                return .success(n)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The next complete message, without its NUL; nil when no complete message is buffered yet.
    /// A copy: a server reads large messages in place with `nextMessage(_:)`.
    /// - Throws: `VarlinkFrameError.tooLarge` when the message (complete or not) is longer than
    ///   `maxMessageSize`.
    public mutating func nextMessage() throws(VarlinkFrameError) -> [UInt8]? {
        try nextMessage { Array($0) }
    }

    /// Lends the next complete message, without its NUL, to `body`, in place, then drops it from
    /// the buffer (and frees storage beyond `retainedCapacity` once nothing else is buffered).
    /// - Returns: what `body` returned; nil when no complete message is buffered yet.
    /// - Throws: `VarlinkFrameError.tooLarge` when the message (complete or not) is longer than
    ///   `maxMessageSize`.
    public mutating func nextMessage<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws(VarlinkFrameError) -> Result? {
        let searchFrom = start + scanned
        let found: Int? = buffer.withUnsafeBytes { raw in
            guard searchFrom < raw.count, let base = raw.baseAddress,
                  let hit = memchr(base + searchFrom, 0, raw.count - searchFrom) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
        guard let end = found else {
            scanned = buffer.count - start
            if scanned > maxMessageSize { throw .tooLarge(limit: maxMessageSize) }
            return nil
        }
        if end - start > maxMessageSize { throw .tooLarge(limit: maxMessageSize) }
        let result = buffer.withUnsafeBytes { raw in body(UnsafeRawBufferPointer(rebasing: raw[start..<end])) }
        start = end + 1
        scanned = 0
        shrink()
        return result
    }

    /// Drops the bytes of returned messages once they are worth the move.
    private mutating func compact() {
        if start == 0 { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 1 << 16 && start * 2 >= buffer.count {
            buffer.removeSubrange(..<start)
            start = 0
        }
    }

    /// Frees the storage of a large message once what is left fits in `retainedCapacity`.
    private mutating func shrink() {
        guard buffer.capacity > retainedCapacity, pendingByteCount <= retainedCapacity else { return }
        var kept: [UInt8] = []
        // Room for the ordinary messages to come, under the limit even once rounded up.
        kept.reserveCapacity(max(pendingByteCount, min(1 << 12, retainedCapacity / 2)))
        kept.append(contentsOf: buffer[start...])
        buffer = kept
        start = 0
    }
}
