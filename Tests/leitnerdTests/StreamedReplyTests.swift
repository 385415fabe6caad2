import Testing
import LeitnerCore
import LeitnerSystem
import LeitnerVarlink
import LeitnerTestSupport
@testable import leitnerd

/// The parts of a streamed `List` as the connection's thread takes them (docs/daemon.md,
/// "Streamed replies"): the first is sent after eight cards are read, not once 64 KiB of
/// them are, so that `leitnerctl list` prints its first line early; the next are cut at 64 KiB.
@Suite struct StreamedReplyTests {
    /// The frames of a `List` with text of every card of a store of `count` cards, each one's
    /// cards' ids, read back as a client reads them.
    static func listedParts(count: Int, more: Bool, filter: TagFilter = .all) throws -> (parts: [[String]], ids: [String]) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let ids = (0..<count).map { index in
            let number = String(index)
            return "card" + String(repeating: "0", count: 4 - number.count) + number
        }
        for (index, id) in ids.enumerated() {
            dir.write("\(index % 3 + 1)/\(id)/front.txt", "front of \(id), a line as long as a card's usual front")
            dir.write("\(index % 3 + 1)/\(id)/back.txt", "back of \(id), with a second line\nas most backs have")
            dir.write("\(index % 3 + 1)/\(id)/tags", index % 2 == 0 ? "even\n" : "odd\n")
        }
        var options = BoxOptions(storePath: dir.path, device: "here")
        options.buildsIndexesApart = true
        let owner = try BoxOwner(options: options, hook: nil)
        let wake = try Wake()
        defer { _ = owner.close(wake: wake, deadline: .now + .seconds(5)) }
        if !filter.isEmpty {
            // The tag table installed first: the listing is a warm one, not the build's stream.
            _ = try owner.run(wake: wake) { context in try context.box.tagCounts() }.get()
        }
        let listing = try owner.run(wake: wake) { context in
            try context.box.startListing(level: nil, withText: true, filter: filter, duringBuild: true)
        }.get()
        let reply = StreamedReply(items: CardItems(listing), parts: VarlinkReplyParts(member: "cards", limit: 1 << 20, more: more),
                                  owner: owner)
        let parts = try Self.frameIDs(of: reply, member: "cards", wake: wake)
        let byLevel = ids.enumerated().sorted { ($0.offset % 3, $0.element) < ($1.offset % 3, $1.element) }
        return (parts, byLevel.filter { filter.isEmpty || ($0.offset % 2 == 0) == filter.tags.contains("even") }.map(\.element))
    }

    /// The first part holds the first batch's eight cards, however short they are; the next
    /// ones are cut at about 64 KiB (some hundreds of these cards); every card comes once, in
    /// order. Before, the first part was cut at 64 KiB like the others: the first line of
    /// `leitnerctl list` waited for some hundreds of card directories to be read; then it was
    /// 32 cards, each read (about 20 µs of the daemon's CPU) before the first line.
    @Test(arguments: [TagFilter.all, try TagFilter(tags: ["even"])])
    func theFirstPartIsEightCardsAndTheNextAreLarger(filter: TagFilter) throws {
        let (parts, ids) = try Self.listedParts(count: 2_000, more: true, filter: filter)
        #expect(parts.flatMap { $0 } == ids)
        #expect(parts.count >= 3)
        #expect(parts[0].count == 8)
        #expect(parts[1].count > 100)
    }

    /// A listing that the first batch holds whole is one reply with `more` too, without
    /// `continues`: the first part is cut early only when more cards are to come. Cut at
    /// every first batch, a short answer came as a part and an empty last reply.
    @Test func aListingTheFirstBatchHoldsIsOneReply() throws {
        let (parts, ids) = try Self.listedParts(count: 6, more: true)
        #expect(parts == [ids])
    }

    /// The parts of a streamed `Search` of "front" over `count` cards, each a card's one line.
    static func searchedParts(count: Int) throws -> [[String]] {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for index in 0..<count {
            dir.write("1/c\(10_000 + index)/front.txt", "front \(index)")
            dir.write("1/c\(10_000 + index)/back.txt", "back")
        }
        var options = BoxOptions(storePath: dir.path, device: "here")
        options.buildsIndexesApart = true
        let owner = try BoxOwner(options: options, hook: nil)
        let wake = try Wake()
        defer { _ = owner.close(wake: wake, deadline: .now + .seconds(5)) }
        let scan = try owner.run(wake: wake) { context in
            try context.box.startSearch(SearchPattern("front", regex: false), fields: [.front], level: nil, limit: nil)
        }.get()
        let reply = StreamedReply(items: SearchItems(scan), parts: VarlinkReplyParts(member: "matches", limit: 1 << 20, more: true),
                                  owner: owner)
        return try Self.frameIDs(of: reply, member: "matches", wake: wake)
    }

    /// The ids of the items of each frame of `reply`, read back as a client reads them.
    static func frameIDs(of reply: some ReplyStream, member: String, wake: Wake) throws -> [[String]] {
        var parts: [[String]] = []
        while let frame = reply.nextFrame(wake: wake, peerClosed: { false }) {
            let parsed = try VarlinkReply(parsing: Array(frame.dropLast()))
            #expect(parsed.error == nil)
            parts.append(parsed.parameters[member]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        }
        return parts
    }

    /// A search's first batch of lines is sent as a part of its own when the search is not done,
    /// rather than held until 64 KiB of lines are: the first search after a daemon's start gives
    /// a card the index's file holds while the build still asks every card's stamp, and its line
    /// went out only with the reply's end. Here 600 short lines, under 64 KiB: one reply before.
    /// A search the first batch holds whole stays one reply.
    @Test func aSearchsFirstBatchIsAPartOfItsOwnWhenMoreMayFollow() throws {
        let parts = try Self.searchedParts(count: 600)
        #expect(parts.count >= 2)
        #expect(parts.first?.count == SearchItems.batchSize)
        #expect(parts.flatMap { $0 } == (0..<600).map { "c\(10_000 + $0)" })
        #expect(try Self.searchedParts(count: 6) == [(0..<6).map { "c\(10_000 + $0)" }])
    }

    /// Items read under the box's turn a batch at a time, 256 of about 200 bytes, counted.
    final class CountedItems: ReplyItems {
        private(set) var batches = 0
        let total: Int

        init(batches total: Int) { self.total = total }

        var member: String { "lines" }
        var needsBox: Bool { batches < total }

        func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
            guard batches < total else { return nil }
            batches += 1
            return (0..<256).map { .string("line \($0) of batch \(batches) " + String(repeating: "x", count: 180)) }
        }

        func describe(_ item: JSONValue) -> String { "a line" }
    }

    /// A client that closed the connection (`leitnerctl search | head`, once head has its
    /// lines) ends the stream before its next batch is read under the box's turn: the parts
    /// already made may still go (their send fails), no batch more is read, and what the stream
    /// held is let go. Before, the daemon read the batches of one more part (two of 256 search
    /// matches) for nobody, under the turn, and found the client gone only when that part's send failed.
    @Test func aClosedPeerEndsTheStreamBeforeItsNextBatch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let owner = try BoxOwner(options: BoxOptions(storePath: dir.path, device: "here"), hook: nil)
        let wake = try Wake()
        defer { _ = owner.close(wake: wake, deadline: .now + .seconds(5)) }
        let items = CountedItems(batches: 20)
        let reply = StreamedReply(items: items, parts: VarlinkReplyParts(member: "lines", limit: 1 << 20, more: true), owner: owner)
        #expect(reply.nextFrame(wake: wake, peerClosed: { false }) != nil)
        let read = items.batches
        #expect(read < 20 && !reply.wasAbandoned)
        while reply.nextFrame(wake: wake, peerClosed: { true }) != nil {}
        #expect(items.batches == read && reply.wasAbandoned && reply.isComplete)
    }

    /// Without `more` there is one reply, whole, as before.
    @Test func withoutMoreTheReplyIsOne() throws {
        let (parts, ids) = try Self.listedParts(count: 300, more: false)
        #expect(parts == [ids])
    }
}
