import Synchronization
import Testing
import LeitnerCore
import LeitnerSystem
import LeitnerVarlink
import LeitnerTestSupport
@testable import leitnerd

/// The daemon's box owner while the search index is built off the turn (docs/daemon.md,
/// "Indexes built off the turn"): the build is held at its first card by the test's probe
/// (`IndexBuildProbe`), so that what must happen while it runs happens then, with no timing.
/// Before the change, the build held the box's turn, and these calls waited `waitLimit` and
/// were answered busy.
@Suite struct BoxOwnerIndexBuildTests {
    struct State: Sendable {
        /// The build reached its first card, and waits there until `released`.
        var building = false
        var released = false
        /// Cards the builds read, over all of them.
        var cardsRead = 0
        /// The searches' outcomes: the lines found, or the error's reason.
        var searches: [String] = []
    }

    /// The options of the tests' boxes: indexes built off the turn, as the daemon's.
    static func options(_ dir: TemporaryDirectory) -> BoxOptions {
        var options = BoxOptions(storePath: dir.path, device: "here")
        options.groupCommit = true
        options.buildsIndexesApart = true
        return options
    }

    static func owner(_ dir: TemporaryDirectory, cards: Int) throws -> BoxOwner {
        let owner = try BoxOwner(options: Self.options(dir), hook: nil)
        let wake = try Wake()
        for index in 0..<cards {
            let added = owner.run(wake: wake) { context in
                try context.box.add(front: Asset(name: "front.txt", text: "front \(index)"),
                                    back: Asset(name: "back.txt", text: "back"), id: "card\(index)", level: "1")
            }
            #expect((try? added.get()) != nil)
        }
        return owner
    }

    /// Holds every build of the store at its first card until the test releases it.
    static func holdBuilds(of root: String, _ rendezvous: Rendezvous<State>) throws {
        let wake = try Wake()
        IndexBuildProbe.observe(storeRoot: root) { _ in
            var first = false
            rendezvous.update { state in
                first = !state.building
                state.building = true
                state.cardsRead += 1
            }
            if first { #expect(rendezvous.wait(with: wake) { $0.released }) }
        }
    }

    /// Holds the builds of the store at `root` before they read the card `id`, until released.
    static func holdBuilds(of root: String, at id: String, _ rendezvous: Rendezvous<State>) throws {
        let held = try Wake()
        IndexBuildProbe.observe(storeRoot: root) { read in
            guard read == id, !rendezvous.read({ $0.building }) else { return }
            rendezvous.update { $0.building = true }
            #expect(rendezvous.wait(with: held) { $0.released })
        }
    }

    /// `card0000` … `card1499`: ids that sort as their numbers, 1,024 of them before `card1024`.
    static let numberedIDs = (0..<1_500).map { index in
        let number = String(index)
        return "card" + String(repeating: "0", count: 4 - number.count) + number
    }

    /// A search from a thread of its own, as a connection's; its outcome goes into the state.
    static func search(_ owner: BoxOwner, _ rendezvous: Rendezvous<State>) {
        startThread {
            guard let wake = try? Wake() else { return }
            let outcome = owner.run(wake: wake) { context in
                try context.box.search(SearchPattern("front", regex: false), fields: [.front], level: nil, limit: 5)
            }
            let said = switch outcome {
            case .success(let lines): "\(lines.count) lines"
            case .failure(let error): error.reply.parameters["reason"]?.stringValue ?? "\(error.reply)"
            }
            rendezvous.update { $0.searches.append(said) }
        }
    }

    @Test func callsAreAnsweredWhileASearchIndexIsBuiltAndSearchesShareTheBuild() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let owner = try Self.owner(dir, cards: 8)
        let wake = try Wake()
        let root = try #require(try? owner.run(wake: wake) { $0.box.storePath }.get())
        let rendezvous = Rendezvous(State())
        try Self.holdBuilds(of: root, rendezvous)
        defer { IndexBuildProbe.observe(storeRoot: root, nil) }

        Self.search(owner, rendezvous)
        #expect(rendezvous.wait(with: wake) { $0.building })
        // A second search waits for the same build rather than beginning one.
        Self.search(owner, rendezvous)
        // Meanwhile the box answers the other calls at once: a status, a grade.
        let status = owner.run(wake: wake) { context in try context.box.status() }
        #expect((try? status.get()) != nil)
        let graded = owner.run(wake: wake) { context in
            _ = try context.box.prepare()
            guard let shown = try context.box.next().card else { throw BoxError.testComplete }
            return try context.box.grade(id: shown.id, correct: true, answerMs: 100).card.level
        }
        #expect((try? graded.get()) == Level(rawValue: 2))
        #expect(rendezvous.read { $0.searches } == [])

        rendezvous.update { $0.released = true }
        #expect(rendezvous.wait(with: wake) { $0.searches.count == 2 })
        #expect(rendezvous.read { $0.searches } == ["5 lines", "5 lines"])
        // One build read each card once.
        #expect(rendezvous.read { $0.cardsRead } == 8)
        // The card graded meanwhile is found at its new level.
        let atTwo = owner.run(wake: wake) { context in
            try context.box.search(SearchPattern("front", regex: false), fields: [.front], level: "2").map(\.id)
        }
        #expect((try? atTwo.get())?.count == 1)
        #expect(owner.close(wake: wake, deadline: .now + .seconds(5)))
    }

    /// A reload that changes the schedule reopens the box (SIGHUP, docs/daemon.md), which stops
    /// the index build the first search finds in: the search goes on in the new box, each card's
    /// line given once. It ended with "the box is closing". The build is held at the first card of
    /// its second piece (1,024 cards), after the first piece's lines were given, and gives up at
    /// its 1,280th card (every 256th is asked).
    @Test func aReloadDoesNotEndTheFirstSearch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let cards = Self.numberedIDs
        for card in cards {
            dir.write("1/\(card)/front.txt", "front \(card)")
            dir.write("1/\(card)/back.txt", "back")
        }
        var options = Self.options(dir)
        let owner = try BoxOwner(options: options, hook: nil)
        let wake = try Wake()
        let root = try #require(try? owner.run(wake: wake) { $0.box.storePath }.get())
        let rendezvous = Rendezvous(State())
        try Self.holdBuilds(of: root, at: "card1024", rendezvous)
        defer { IndexBuildProbe.observe(storeRoot: root, nil) }

        let scan = try owner.run(wake: wake) { context in
            try context.box.startSearch(SearchPattern("front", regex: false), fields: [.front], level: nil, limit: nil,
                                        duringBuild: true)
        }.get()
        let items = SearchItems(scan)
        var ids: [String] = []
        let firstPiece = Array(cards.prefix(1_024))
        #expect(Self.read(items, owner, root: root, wake: wake, into: &ids, until: { $0.count == firstPiece.count }) {
            $0["id"]?.stringValue
        } == nil)
        #expect(ids == firstPiece)
        #expect(rendezvous.wait(with: wake) { $0.building })
        options.onFail = .previous
        guard case .applied(let changes) = owner.reconfigure(options: options, hook: nil, wake: wake, giveUp: { false }) else {
            Issue.record("the reload was not applied")
            return
        }
        #expect(changes == ["schedule"])
        rendezvous.update { $0.released = true }
        #expect(Self.read(items, owner, root: root, wake: wake, into: &ids) { $0["id"]?.stringValue } == "")
        #expect(ids == cards)
        #expect(owner.close(wake: wake, deadline: .now + .seconds(5)))
    }

    /// Reads the batches of a streamed reply as a connection's thread does — under the box's turn
    /// when they need it, else off it — adding each item's id to `ids`, until `until` holds for
    /// them.
    /// - Returns: "" at the reply's end, the error's reason when it ends with one; nil when
    ///   stopped by `until`.
    static func read<Items: ReplyItems>(_ items: Items, _ owner: BoxOwner, root: String, wake: Wake, into ids: inout [String],
                                        until: ([String]) -> Bool = { _ in false }, id: (Items.Item) -> String?) -> String? {
        while !until(ids) {
            let batch: Result<[Items.Item]?, ErrorReply> = items.needsBox
                ? owner.run(wake: wake) { context in try items.next(context) }
                : Result { try items.next(nil) }.mapError { ErrorReply(reply: ErrorReplies.reply(for: $0, storePath: root)) }
            switch batch {
            case .success(let batch?): ids += batch.compactMap(id)
            case .success(nil): return ""
            case .failure(let error): return error.reply.parameters["reason"]?.stringValue ?? "\(error.reply)"
            }
        }
        return nil
    }

    /// The first `List` by tag streams the tag table's build a piece at a time (1,024 cards): a
    /// reload that stops the build after the first piece's cards were given does not end the
    /// listing, which gives the rest from the new box's tag table, in order, none twice. It ended
    /// with "the box is closing". A filter that only leaves a tag out selects cards without tags,
    /// which the tag table does not list among its tagged cards. The build is held at the first
    /// card of the second piece, and gives up at its 1,280th card (every 256th is asked).
    @Test(arguments: [try TagFilter(tags: ["t"]), try TagFilter(notTags: ["u"])])
    func aReloadDoesNotEndTheFirstListingByTag(filter: TagFilter) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // A third tagged t, a third u, a third without tags.
        let cards = Self.numberedIDs.enumerated().map { index, id in (id: id, tags: [["u"], ["t"], []][index % 3]) }
        for card in cards {
            dir.write("1/\(card.id)/front.txt", "front")
            dir.write("1/\(card.id)/back.txt", "back")
            if !card.tags.isEmpty { dir.write("1/\(card.id)/tags", card.tags.map { $0 + "\n" }.joined()) }
        }
        let selected = cards.filter { filter.selects($0.tags) }.map(\.id)
        var options = Self.options(dir)
        let owner = try BoxOwner(options: options, hook: nil)
        let wake = try Wake()
        let root = try #require(try? owner.run(wake: wake) { $0.box.storePath }.get())
        let rendezvous = Rendezvous(State())
        try Self.holdBuilds(of: root, at: "card1024", rendezvous)
        defer { IndexBuildProbe.observe(storeRoot: root, nil) }

        let listing = try owner.run(wake: wake) { context in
            try context.box.startListing(level: nil, withText: true, filter: filter, duringBuild: true)
        }.get()
        let items = CardItems(listing)
        var ids: [String] = []
        let firstPiece = selected.filter { $0 < "card1024" }
        #expect(Self.read(items, owner, root: root, wake: wake, into: &ids, until: { $0.count == firstPiece.count }) { $0.id } == nil)
        #expect(ids == firstPiece)
        #expect(rendezvous.wait(with: wake) { $0.building })
        options.onFail = .previous
        guard case .applied = owner.reconfigure(options: options, hook: nil, wake: wake, giveUp: { false }) else {
            Issue.record("the reload was not applied")
            return
        }
        rendezvous.update { $0.released = true }
        #expect(Self.read(items, owner, root: root, wake: wake, into: &ids) { $0.id } == "")
        #expect(ids == selected)
        #expect(owner.close(wake: wake, deadline: .now + .seconds(5)))
    }

    @Test func theDaemonStopsWhileABuildRuns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let owner = try Self.owner(dir, cards: 4)
        let wake = try Wake()
        let root = try #require(try? owner.run(wake: wake) { $0.box.storePath }.get())
        let rendezvous = Rendezvous(State())
        try Self.holdBuilds(of: root, rendezvous)
        defer { IndexBuildProbe.observe(storeRoot: root, nil) }

        Self.search(owner, rendezvous)
        #expect(rendezvous.wait(with: wake) { $0.building })
        // The build holds no turn: the box closes at once, and the build is told to give up.
        owner.stopIndexBuilds()
        #expect(owner.close(wake: wake, deadline: .now + .seconds(5)))
        rendezvous.update { $0.released = true }
        #expect(rendezvous.wait(with: wake) { $0.searches.count == 1 })
        #expect(rendezvous.read { $0.searches } == ["the daemon is stopping"])
    }
}
