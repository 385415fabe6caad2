/// Cuts a reply whose one array member grows with the box (`List`'s `cards`, `Log`'s `entries`)
/// into Varlink replies of bounded size, as its items come, without ever holding the whole reply
/// (docs/protocol.md, "Streamed replies").
///
/// Called with `more`, items are gathered into parts of about `partSize` bytes; each part but
/// the last is sent as `{"continues":true,"parameters":{"cards":[…]}}`, the last without
/// `continues`, so an empty listing is one reply with an empty array. A part holds at least one
/// item, so an item larger than `partSize` goes alone; one whose reply would pass `limit` is
/// refused (`Overflow.itemTooLarge`).
///
/// Called without `more`, there is one reply, and it is refused (`Overflow.needsMore`) as soon
/// as it would pass `limit`: the items already gathered are dropped, never sent truncated.
/// When the items' length is known before the first is appended (`announce`), that one reply is
/// handed out in pieces of about `partSize` as it is written, and never held whole.
///
/// The frames are the bytes `VarlinkReply(parameters: [member: .array(items)], continues:).frame`
/// gives, built from each item's serialisation as it is appended.
public struct VarlinkReplyParts {
    /// How a reply could not be kept within the limit.
    public enum Overflow: Error, Equatable {
        /// Without `more`, the whole reply would pass `limit` bytes.
        case needsMore(limit: Int)
        /// With `more`, the item `index` (from 0) alone makes a reply of `size` bytes, past `limit`.
        case itemTooLarge(index: Int, size: Int, limit: Int)
    }

    /// The size a part is cut at, unless the limit is smaller: small enough that the first part
    /// of a long listing goes out at once and that a part costs the client little to hold, large
    /// enough that the framing is a small share of it.
    public static let defaultPartSize = 64 << 10

    /// The array member the items go in.
    public let member: String
    /// The longest message allowed (without its NUL), as `VarlinkFrameReader.maxMessageSize`.
    public let limit: Int
    /// True when the caller asked for `more`: the reply may come in parts.
    public let more: Bool
    /// The size a part is cut at (at most `limit`).
    public let partSize: Int

    /// `{"continues":true,"parameters":{"MEMBER":[`, and the same without `continues`.
    private let continuingPrefix: [UInt8]
    private let lastPrefix: [UInt8]
    private static let suffix: [UInt8] = Array("]}}".utf8)

    /// The part being gathered: its items, serialised and separated by commas. Without `more`,
    /// the one reply's prefix comes first, so that `finish` ends the frame where it is rather
    /// than copying a listing's megabytes into another.
    private var items: [UInt8] = []
    private var itemCount = 0
    /// Items appended in all.
    private var appended = 0
    /// True once room was made for the items to come (`reserve`).
    private var reserved = false
    /// Whole parts ready to be sent, in order; after `announce`, pieces of the one reply.
    private var ready: [[UInt8]] = []
    /// After `announce`: the length of the one reply (without its NUL), and how much of it was
    /// handed out so far.
    private var announced: Int?
    private var handedOut = 0

    /// - Parameters:
    ///   - member: the reply's array member (`cards`).
    ///   - limit: the longest message allowed, without its NUL (`MaxMessageSize=`).
    ///   - more: the call asked for `more`.
    ///   - partSize: where parts are cut; `limit` when smaller.
    public init(member: String, limit: Int, more: Bool, partSize: Int = VarlinkReplyParts.defaultPartSize) {
        self.member = member
        self.limit = limit
        self.more = more
        self.partSize = min(partSize, limit)
        var name: [UInt8] = []
        JSONValue.string(member).serialize(into: &name)
        lastPrefix = Array(#"{"parameters":{"#.utf8) + name + Array(":[".utf8)
        continuingPrefix = Array(#"{"continues":true,"parameters":{"#.utf8) + name + Array(":[".utf8)
        if !more {
            items = lastPrefix
        }
    }

    /// Adds an item at the end of the reply. With `more`, a part that it would take past
    /// `partSize` is closed first and becomes ready (`nextReadyFrame`).
    /// - Throws: `Overflow` when the reply cannot stay within `limit`; nothing of the item is kept.
    public mutating func append(_ item: some JSONWritable) throws(Overflow) {
        precondition(announced == nil, "an announced reply's items are written, not appended")
        let mark = items.count
        if itemCount > 0 { items.append(UInt8(ascii: ",")) }
        let itemStart = items.count
        item.serialize(into: &items)
        let itemSize = items.count - itemStart
        let index = appended
        if !more {
            guard items.count + Self.suffix.count <= limit else {
                items.removeSubrange(mark...)
                throw .needsMore(limit: limit)
            }
        } else {
            // Any part may turn out not to be the last: each must fit with `continues`.
            let alone = continuingPrefix.count + itemSize + Self.suffix.count
            guard alone <= limit else {
                items.removeSubrange(mark...)
                throw .itemTooLarge(index: index, size: alone, limit: limit)
            }
            if itemCount > 0, continuingPrefix.count + items.count + Self.suffix.count > partSize {
                ready.append(frame(continuingPrefix, items[..<mark]))
                items.removeSubrange(..<itemStart)
                itemCount = 0
            }
        }
        itemCount += 1
        appended += 1
    }

    /// With `more`: closes the part gathered so far as it is, if it holds an item, and makes it
    /// ready (`nextReadyFrame`) without waiting for it to reach `partSize`: the first items of a
    /// long reply go out as soon as they are read, the next parts are cut at `partSize`.
    /// Nothing without `more`: the one reply is one message.
    public mutating func cut() {
        guard more, itemCount > 0 else { return }
        ready.append(frame(continuingPrefix, items[...]))
        items.removeAll(keepingCapacity: true)
        itemCount = 0
    }

    /// Makes room for `count` more items the size of those appended so far, within `limit`:
    /// without `more`, the one reply then grows in place rather than by doubling (each doubling
    /// copies it and touches fresh pages: a sixth of writing a whole level's 2.9 MB). Once only;
    /// nothing before the first item.
    public mutating func reserve(forItems count: Int) {
        guard !more, announced == nil, !reserved, appended > 0, count > 0 else { return }
        reserved = true
        let average = (items.count - lastPrefix.count) / appended + 1
        items.reserveCapacity(min(limit + 1, items.count + count * average + count / 8 * average + Self.suffix.count + 1))
    }

    /// True when the one reply without `more` fits the limit with items of `itemBytes` bytes in
    /// all, the commas between them counted.
    public func fits(itemBytes: Int) -> Bool {
        lastPrefix.count + itemBytes + Self.suffix.count <= limit
    }

    /// Without `more`, before the first item: the items to come are `itemBytes` long in all
    /// (each item's `serialize`, and a comma between two). The one reply is then handed out in
    /// pieces of about `partSize` bytes as the items are appended (`nextReadyFrame`), the first
    /// with the reply's head, the last (`finish`) with its end and NUL: each piece is a part of
    /// the same message, not a message.
    /// - Throws: `Overflow.needsMore` when that reply would pass `limit`; nothing is handed out.
    public mutating func announce(itemBytes: Int) throws(Overflow) {
        precondition(!more && appended == 0 && announced == nil, "announced once, without more, before the first item")
        guard fits(itemBytes: itemBytes) else { throw .needsMore(limit: limit) }
        announced = lastPrefix.count + itemBytes + Self.suffix.count
        items.reserveCapacity(partSize + 1024)
    }

    /// Adds an item at the end of an announced reply (`announce`); the reply so far becomes a
    /// piece ready to be sent (`nextReadyFrame`) once it reaches `partSize`. Nothing to refuse:
    /// the length announced was held to the limit.
    public mutating func write(_ item: some JSONWritable) {
        precondition(announced != nil, "written after announce")
        if itemCount > 0 { items.append(UInt8(ascii: ",")) }
        item.serialize(into: &items)
        itemCount += 1
        appended += 1
        if items.count >= partSize {
            ready.append(items)
            handedOut += items.count
            items = []
            items.reserveCapacity(partSize + 1024)
        }
    }

    /// True when a part or piece is ready to be sent.
    public var hasReadyFrame: Bool { !ready.isEmpty }

    /// True once a piece of an announced reply was handed out and its last piece was not: the
    /// connection is in the middle of a message, where no other reply may come.
    public var isMidMessage: Bool { announced != nil && handedOut > 0 }

    /// A whole part that can be sent now (with `continues`), in order, or after `announce` the
    /// next piece of the one reply; nil when none is ready.
    public mutating func nextReadyFrame() -> [UInt8]? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Ends the reply: the last frame (without `continues`), with the items gathered since the
    /// last part. Take the ready frames first.
    public mutating func finish() -> [UInt8] {
        precondition(ready.isEmpty, "the ready parts go out before the last one")
        var last: [UInt8] = []
        if more {
            last = frame(lastPrefix, items[...])
            items = []
        } else {
            // Taken, not copied: the frame is the one buffer.
            swap(&last, &items)
            last += Self.suffix
            last.append(0)
            if let announced {
                assert(handedOut + last.count - 1 == announced, "the items' length was announced as it is written")
                self.announced = nil
                handedOut = 0
            }
        }
        itemCount = 0
        return last
    }

    private func frame(_ prefix: [UInt8], _ body: ArraySlice<UInt8>) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(prefix.count + body.count + Self.suffix.count + 1)
        frame += prefix
        frame += body
        frame += Self.suffix
        frame.append(0)
        return frame
    }
}
