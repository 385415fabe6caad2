import Glibc

/// Splits the byte stream of a Varlink connection into messages: each message is a JSON object
/// ended by a NUL byte (SPEC §4). Bytes arrive in any chunks; `nextMessage()` yields each complete
/// message without its NUL, in order.
///
/// A message longer than `maxMessageSize` is refused as soon as the buffered part of it exceeds
/// the limit, before its NUL arrives, so that a client cannot make the daemon buffer without end.
/// After `tooLarge` the stream cannot be resynchronised: the connection is to be closed (SPEC §4).
public struct VarlinkFrameReader: Sendable {
    /// The default limit: 16 MiB, room for a card whose assets (base64) are large images or audio.
    public static let defaultMaxMessageSize = 16 << 20

    /// The longest message accepted, in bytes, without its NUL.
    public let maxMessageSize: Int

    private var buffer: [UInt8] = []
    /// Where the first unread message starts in `buffer`.
    private var start = 0
    /// How many bytes after `start` are known to hold no NUL (not searched again).
    private var scanned = 0

    /// - Parameter maxMessageSize: the longest message accepted, in bytes, without its NUL.
    public init(maxMessageSize: Int = VarlinkFrameReader.defaultMaxMessageSize) {
        precondition(maxMessageSize > 0, "a Varlink message limit must be positive")
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received and not yet returned as a message: non-zero at end of file means the peer
    /// closed the connection in the middle of a message.
    public var pendingByteCount: Int { buffer.count - start }

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
    /// - Returns: the number of bytes received; 0 means the peer closed its end.
    /// - Throws: `Errno` from `recv`; `EAGAIN` on a timeout or an empty non-blocking socket.
    public mutating func receive(from socket: FileDescriptor, chunkSize: Int = 1 << 16) throws(Errno) -> Int {
        let result = withUnsafeTemporaryAllocation(byteCount: chunkSize, alignment: 1) { chunk -> Result<Int, Errno> in
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
    /// - Throws: `VarlinkFrameError.tooLarge` when the message (complete or not) is longer than
    ///   `maxMessageSize`.
    public mutating func nextMessage() throws(VarlinkFrameError) -> [UInt8]? {
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
        let message = Array(buffer[start..<end])
        start = end + 1
        scanned = 0
        return message
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
}
