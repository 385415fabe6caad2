import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// Cloze notes in a store synced between two machines (R30, docs/sync.md "Cloze notes on two
/// machines"): this box is one machine (`here`), the other's log is written by hand into
/// `.leitner/devices/peer/`, and what a sync tool delivers is written into the store piece by
/// piece, as Syncthing writes it: a note's directory, each card's `cloze-of`, the old note's
/// removal, in any order.
@Suite struct ClozeNoteSyncTests {
    /// A synced store holding the note `zahl` with `zahl.c1` in level 2 and `zahl.c2` in level 4,
    /// the other machine's log holding `peerLines`; the box on it, settling after `settleAfter` ms.
    static func start(_ dir: TemporaryDirectory, peerLines: String = "", settleAfter: Int64) throws -> Box {
        dir.write(".leitner/devices/peer/log",
                  SyncDevicesTests.line(SyncDevicesTests.realTime(plus: -60), "add", "zahl.c1", "-", "2") + peerLines)
        let box = try open(dir, settleAfter: settleAfter)
        _ = try box.addCloze(text: "{{c1::eins}} und {{c2::zwei}}", id: "zahl", level: "2")
        _ = try box.move(id: "zahl.c2", level: "4")
        return box
    }

    /// The other machine's line: it saw the note gain c3, and added `zahl.c3` for it.
    static var peerAddsC3: String {
        SyncDevicesTests.line(SyncDevicesTests.realTime(plus: -10), "add", "zahl.c3", "-", "new", extra: "origin=note")
    }

    static func open(_ dir: TemporaryDirectory, settleAfter: Int64) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: BoxTwoMachinesTests.AheadClock(seconds: 30))
        options.settleAfter = settleAfter
        options.newPerDay = 5
        return try Box(options: options)
    }

    /// Each card: its id, level and what its `cloze-of` names.
    static func cards(_ box: Box) throws -> [String] {
        try box.list(level: nil, withText: false).map { "\($0.id) \($0.level.name) \($0.clozeOf?.description ?? "-")" }
    }

    /// The note gains c3 by hand; the other machine saw the number too and added the same card
    /// (its `add origin=note`, delivered before its copy of the card). Both machines added it, and
    /// the merged history says once that it was added; with a delete in between, twice.
    @Test func aNumberBothMachinesAddedIsOneAddInTheMergedHistory() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, peerLines: Self.peerAddsC3, settleAfter: 600_000)
        defer { box.close() }
        dir.write("notes/zahl/text.md", "{{c1::eins}} und {{c2::zwei}} und {{c3::drei}}")
        #expect(try box.show(id: "zahl.c3").level == .new)
        // This machine's line says why it added the card.
        #expect(dir.logLines.contains { $0[1] == "add" && $0[2] == "zahl.c3" && $0.contains("origin=note") })
        let adds = try box.log(since: nil, limit: nil).filter { $0.event == .add && $0.id == "zahl.c3" }
        #expect(adds.map(\.device) == ["peer"], "the card's add is given once, as the first device's")
        #expect(try box.log(since: nil, limit: 1).count == 1)
        // A card deleted and added again by its note on the other machine was added twice.
        dir.write(".leitner/devices/peer/log", dir.read(".leitner/devices/peer/log")
                  + SyncDevicesTests.line(SyncDevicesTests.realTime(plus: 40), "delete", "zahl.c3", "new", "-")
                  + SyncDevicesTests.line(SyncDevicesTests.realTime(plus: 41), "add", "zahl.c3", "-", "new", extra: "origin=note"))
        #expect(try box.log(since: nil, limit: nil).filter { $0.event == .add && $0.id == "zahl.c3" }.count == 2)
    }

    /// The other machine's card arrives before its note's new number: this machine logs it as
    /// it came (`origin=hand`), and the history gives the card's one add, the other machine's.
    @Test func aCardThatArrivedBeforeItsNumberIsStillOneAdd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, peerLines: Self.peerAddsC3, settleAfter: 600_000)
        defer { box.close() }
        dir.write("new/zahl.c3/cloze-of", "zahl\nc3\n")
        _ = try box.status()
        dir.write("notes/zahl/text.md", "{{c1::eins}} und {{c2::zwei}} und {{c3::drei}}")
        #expect(try box.show(id: "zahl.c3").clozeOf == ClozeOf(note: "zahl", number: 3))
        #expect(dir.logLines.contains { $0[1] == "add" && $0[2] == "zahl.c3" && $0.contains("origin=hand") })
        #expect(try box.log(since: nil, limit: nil).filter { $0.event == .add && $0.id == "zahl.c3" }.map(\.device) == ["peer"])
    }

    /// The pieces of the other machine's `rename zahl nummer`, as a sync tool delivers them.
    enum Piece: CaseIterable {
        case newNote, firstCard, secondCard, oldNoteGone

        func deliver(_ dir: TemporaryDirectory) {
            switch self {
            case .newNote: dir.write("notes/nummer/text.md", "{{c1::eins}} und {{c2::zwei}}")
            case .firstCard: dir.write("2/zahl.c1/cloze-of", "nummer\nc1\n")
            case .secondCard: dir.write("4/zahl.c2/cloze-of", "nummer\nc2\n")
            case .oldNoteGone: dir.removeTree("notes/zahl")
            }
        }
    }

    /// Every order of the four pieces (24).
    static let orders: [[Piece]] = {
        func permutations(_ pieces: [Piece]) -> [[Piece]] {
            guard pieces.count > 1 else { return [pieces] }
            return pieces.indices.flatMap { index in
                var rest = pieces
                let first = rest.remove(at: index)
                return permutations(rest).map { [first] + $0 }
            }
        }
        return permutations(Piece.allCases)
    }()

    /// A note renamed on the other machine, delivered in pieces in every order, each piece seen
    /// by a request: no card of the new note's own is added while the sync may still be
    /// delivering its cards, none is lost, and once the store is quiet the note has its two cards,
    /// with their ids, levels and histories, naming the new id.
    @Test(arguments: 0..<24)
    func aRenameDeliveredInPiecesNeitherDoublesNorLosesACard(order: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, settleAfter: 600_000)
        let before = try box.log(since: nil, limit: nil).count
        for piece in Self.orders[order] {
            piece.deliver(dir)
            _ = try box.status()
            // A card whose note is not there for the moment is damaged, not listed, and kept.
            let listed = Set(try box.list(level: nil, withText: false).map(\.id))
            #expect(listed.isSubset(of: ["zahl.c1", "zahl.c2"]), "\(listed) after \(piece) of \(Self.orders[order])")
            #expect(dir.levelOnDisk("zahl.c1") == ["2"] && dir.levelOnDisk("zahl.c2") == ["4"])
            #expect(dir.levelOnDisk("nummer.c1") == [] && dir.levelOnDisk("nummer.c2") == [])
        }
        box.close()
        // Quiet now: nothing is added, the cards are sound.
        let quiet = try Self.open(dir, settleAfter: 0)
        defer { quiet.close() }
        _ = try quiet.status()
        #expect(try Self.cards(quiet) == ["zahl.c1 2 cloze 1 of nummer", "zahl.c2 4 cloze 2 of nummer"])
        #expect(try quiet.log(since: nil, limit: nil).count == before)
        #expect(try quiet.doctor().isEmpty)
    }

    /// The daemon running on through the quiet time: the rename's pieces, the new note first (the
    /// order that doubled the cards), and once the store is quiet the note is complete, nothing
    /// added. A copy of a note (`cp -r`) gets its own cards then.
    @Test func aNoteThatCameWithoutItsCardsGetsThemOnlyOnceTheStoreIsQuiet() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let settleAfter: Int64 = 1_500
        let box = try Self.start(dir, settleAfter: settleAfter)
        defer { box.close() }
        for piece in Piece.allCases {
            piece.deliver(dir)
            _ = try box.status()
        }
        dir.write("notes/kopie/text.md", "{{c1::eins}} und {{c2::zwei}}")
        _ = try box.status()
        #expect(try box.list(level: nil, withText: false).map(\.id) == ["zahl.c1", "zahl.c2"])
        usleep(UInt32(settleAfter + 200) * 1000)
        _ = try box.status()
        #expect(try Self.cards(box) == ["zahl.c1 2 cloze 1 of nummer", "zahl.c2 4 cloze 2 of nummer",
                                        "kopie.c1 new cloze 1 of kopie", "kopie.c2 new cloze 2 of kopie"])
        #expect(try box.doctor().isEmpty)
    }
}
