@testable import LeitnerVarlink
import Testing

/// `VarlinkReplyParts` cuts a reply that grows with the box into replies of bounded size
/// (docs/protocol.md, "Streamed replies").
@Suite struct VarlinkReplyPartsTests {
    /// An item of about `size` bytes once serialised, numbered.
    static func item(_ number: Int, size: Int = 40) -> JSONValue {
        let head = #"{"id":"\#(number)","pad":""}"#.utf8.count
        return ["id": .string("\(number)"), "pad": .string(String(repeating: "x", count: max(0, size - head)))]
    }

    /// Every frame of a reply made from `items`: the ready parts as they come, then the last.
    static func frames(_ items: [JSONValue], limit: Int, more: Bool, partSize: Int = 1024) throws(VarlinkReplyParts.Overflow) -> [[UInt8]] {
        var parts = VarlinkReplyParts(member: "cards", limit: limit, more: more, partSize: partSize)
        var frames: [[UInt8]] = []
        for item in items {
            try parts.append(item)
            while let frame = parts.nextReadyFrame() { frames.append(frame) }
        }
        frames.append(parts.finish())
        return frames
    }

    /// The replies the frames carry, read back as a client reads them.
    static func replies(_ frames: [[UInt8]]) throws -> [VarlinkReply] {
        try frames.map { frame in
            #expect(frame.last == 0, "each frame ends with its NUL")
            #expect(!frame.dropLast().contains(0), "and holds no other")
            return try VarlinkReply(parsing: Array(frame.dropLast()))
        }
    }

    @Test func withMoreEveryPartButTheLastContinuesAndNothingIsLostOrRepeated() throws {
        let items = (0..<500).map { Self.item($0) }
        let frames = try Self.frames(items, limit: 4096, more: true)
        let replies = try Self.replies(frames)
        #expect(replies.count > 10)
        #expect(replies.dropLast().allSatisfy { $0.continues })
        #expect(!replies.last!.continues)
        #expect(replies.flatMap { $0.parameters["cards"]?.arrayValue ?? [] } == items)
    }

    /// `cut` sends what is gathered as a part now, small as it is; with nothing gathered, or
    /// without `more` (one message), it does nothing.
    @Test func aCutMakesThePartGatheredSoFarReady() throws {
        let items = (0..<40).map { Self.item($0) }
        var parts = VarlinkReplyParts(member: "cards", limit: 1 << 20, more: true)
        parts.cut()
        #expect(!parts.hasReadyFrame)
        for item in items.prefix(3) { try parts.append(item) }
        parts.cut()
        parts.cut()
        var frames: [[UInt8]] = []
        while let frame = parts.nextReadyFrame() { frames.append(frame) }
        for item in items.dropFirst(3) { try parts.append(item) }
        frames.append(parts.finish())
        let replies = try Self.replies(frames)
        #expect(replies.map { $0.parameters["cards"]?.arrayValue?.count } == [3, 37])
        #expect(replies.map(\.continues) == [true, false])
        #expect(replies.flatMap { $0.parameters["cards"]?.arrayValue ?? [] } == items)

        var one = VarlinkReplyParts(member: "cards", limit: 1 << 20, more: false)
        try one.append(items[0])
        one.cut()
        #expect(!one.hasReadyFrame)
        #expect(one.finish() == VarlinkReply(parameters: ["cards": .array([items[0]])]).frame)
    }

    @Test func noPartPassesThePartSizeUnlessOneItemAloneDoes() throws {
        let items = (0..<300).map { Self.item($0, size: 30 + ($0 * 37) % 200) }
        for frame in try Self.frames(items, limit: 8192, more: true, partSize: 1000) {
            #expect(frame.count - 1 <= 1000)
        }
        // An item larger than the part size but within the limit goes alone.
        let large = [Self.item(1), Self.item(2, size: 3000), Self.item(3)]
        let replies = try Self.replies(try Self.frames(large, limit: 8192, more: true, partSize: 1000))
        #expect(replies.map { $0.parameters["cards"]?.arrayValue?.count } == [1, 1, 1])
    }

    @Test func framesAreTheBytesOfTheSameReplyMadeWhole() throws {
        let items = (0..<50).map { Self.item($0) }
        let frames = try Self.frames(items, limit: 1 << 20, more: false)
        #expect(frames == [VarlinkReply(parameters: ["cards": .array(items)]).frame])
        let continued = try Self.frames(items, limit: 1 << 20, more: true, partSize: 500)
        let first = try Self.replies([continued[0]])[0]
        #expect(continued[0] == VarlinkReply(parameters: first.parameters, continues: true).frame)
    }

    /// Room made for the items to come (`reserve`) changes no byte, and the limit holds as before.
    @Test func roomMadeAheadChangesNothing() throws {
        let items = (0..<200).map { Self.item($0, size: 30 + $0 % 50) }
        for more in [false, true] {
            var parts = VarlinkReplyParts(member: "cards", limit: 1 << 20, more: more, partSize: 2048)
            parts.reserve(forItems: 200)
            var frames: [[UInt8]] = []
            for (index, item) in items.enumerated() {
                try parts.append(item)
                if index == 0 { parts.reserve(forItems: 199) }
                while let frame = parts.nextReadyFrame() { frames.append(frame) }
            }
            frames.append(parts.finish())
            #expect(frames == (try Self.frames(items, limit: 1 << 20, more: more, partSize: 2048)))
        }
        var small = VarlinkReplyParts(member: "cards", limit: 500, more: false)
        try small.append(Self.item(0))
        small.reserve(forItems: 1_000_000)
        #expect(throws: VarlinkReplyParts.Overflow.needsMore(limit: 500)) {
            for number in 1..<20 { try small.append(Self.item(number)) }
        }
    }

    @Test func anEmptyReplyIsOneReplyWithAnEmptyArray() throws {
        for more in [false, true] {
            let replies = try Self.replies(try Self.frames([], limit: 1024, more: more))
            #expect(replies == [VarlinkReply(parameters: ["cards": .array([])])])
        }
    }

    @Test func withoutMoreAReplyUpToTheLimitGoesWholeAndOnePastItIsRefused() throws {
        // The frame of n items of 40 bytes: the framing, 40 n, and n - 1 commas.
        let framing = #"{"parameters":{"cards":[]}}"#.utf8.count
        let fitting = (4096 - framing + 1) / 41
        let exactLimit = framing + 41 * fitting - 1
        let items = (0..<fitting).map { Self.item($0) }
        let frames = try Self.frames(items, limit: exactLimit, more: false)
        #expect(frames.count == 1 && frames[0].count - 1 == exactLimit, "exactly at the limit is allowed")
        #expect(throws: VarlinkReplyParts.Overflow.needsMore(limit: exactLimit - 1)) {
            try Self.frames(items, limit: exactLimit - 1, more: false)
        }
    }

    @Test func withMoreAnItemTooLargeForAnyMessageIsRefusedNamingIt() throws {
        var parts = VarlinkReplyParts(member: "cards", limit: 1024, more: true)
        try parts.append(Self.item(0))
        #expect(throws: VarlinkReplyParts.Overflow.itemTooLarge(index: 1, size: 2000 + #"{"continues":true,"parameters":{"cards":[]}}"#.utf8.count,
                                                                limit: 1024)) {
            try parts.append(Self.item(1, size: 2000))
        }
        // What came before it is still whole, and nothing of the refused item is in it.
        try parts.append(Self.item(2))
        let last = try Self.replies([parts.finish()])[0]
        #expect(last.parameters["cards"]?.arrayValue == [Self.item(0), Self.item(2)])
    }

    @Test func everyPartFitsTheLimitWithItsContinuesFlag() throws {
        // Parts cut at the limit itself: the flag's bytes are counted in.
        let items = (0..<200).map { Self.item($0, size: 97) }
        let frames = try Self.frames(items, limit: 1000, more: true, partSize: 1 << 20)
        #expect(frames.count > 20)
        for frame in frames { #expect(frame.count - 1 <= 1000) }
        #expect(try Self.replies(frames).flatMap { $0.parameters["cards"]?.arrayValue ?? [] }.count == 200)
    }

    @Test func theMemberNameIsEscapedAsJSON() throws {
        var parts = VarlinkReplyParts(member: "entries", limit: 1024, more: false)
        try parts.append(JSONValue.int(1))
        #expect(String(decoding: parts.finish().dropLast(), as: UTF8.self) == #"{"parameters":{"entries":[1]}}"#)
    }
}

/// A reply without `more` whose items' length is known first (`announce`) is handed out in
/// pieces of one message as it is written: the same bytes as the reply made whole.
@Suite struct AnnouncedReplyTests {
    static func length(_ items: [JSONValue]) -> Int {
        items.reduce(0) { $0 + $1.serialized.count } + max(0, items.count - 1)
    }

    @Test func thePiecesAreTheBytesOfTheReplyMadeWhole() throws {
        let items = (0..<500).map { VarlinkReplyPartsTests.item($0, size: 30 + ($0 * 37) % 200) }
        var parts = VarlinkReplyParts(member: "cards", limit: 1 << 20, more: false, partSize: 1000)
        try parts.announce(itemBytes: Self.length(items))
        var pieces: [[UInt8]] = []
        #expect(!parts.isMidMessage)
        for item in items {
            parts.write(item)
            while let piece = parts.nextReadyFrame() { pieces.append(piece) }
            if !pieces.isEmpty { #expect(parts.isMidMessage) }
        }
        pieces.append(parts.finish())
        #expect(!parts.isMidMessage)
        #expect(pieces.count > 10)
        // A piece is cut once it reaches the part size: at most one item past it.
        #expect(pieces.dropLast().allSatisfy { $0.count >= 1000 && $0.count <= 1000 + 231 && !$0.contains(0) })
        #expect(Array(pieces.joined()) == VarlinkReply(parameters: ["cards": .array(items)]).frame)
    }

    @Test func anEmptyAnnouncedReplyIsOneFrame() throws {
        var parts = VarlinkReplyParts(member: "cards", limit: 1024, more: false)
        try parts.announce(itemBytes: 0)
        #expect(parts.finish() == VarlinkReply(parameters: ["cards": .array([])]).frame)
    }

    @Test func aLengthPastTheLimitIsRefusedBeforeAnythingIsHandedOut() {
        let items = (0..<100).map { VarlinkReplyPartsTests.item($0) }
        var parts = VarlinkReplyParts(member: "cards", limit: 4096, more: false)
        let whole = VarlinkReply(parameters: ["cards": .array(items)]).frame.count - 1
        #expect(whole > 4096 && !parts.fits(itemBytes: Self.length(items)))
        #expect(throws: VarlinkReplyParts.Overflow.needsMore(limit: 4096)) { try parts.announce(itemBytes: Self.length(items)) }
        #expect(parts.nextReadyFrame() == nil)
        // Exactly the limit fits.
        let fitting = Array(items.prefix(20))
        let size = VarlinkReply(parameters: ["cards": .array(fitting)]).frame.count - 1
        let exact = VarlinkReplyParts(member: "cards", limit: size, more: false)
        #expect(exact.fits(itemBytes: Self.length(fitting)) && !exact.fits(itemBytes: Self.length(fitting) + 1))
    }
}
