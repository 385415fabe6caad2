import Testing
@testable import LeitnerCore
import LeitnerTestSupport
@testable import LeitnerSystem

/// R28 with R23–R27: a reverse card is made beside its card — in `new/` while the card waits
/// there, into level 1 with it only when the day's admissions take both — and is then a card of
/// its own: admitted, suspended and tagged apart. Its tags are its own `tags` file, a copy of
/// the card's when it is made.
@Suite struct ReversePlacesTagsTests {
    /// The ids of the review log's lines with `origin=admit` (admissions and admitted adds), in order.
    func admitted(_ f: BoxFixture) -> [String] {
        f.dir.logLines.filter { $0.contains("origin=admit") }.map { $0[2] }
    }

    func addPair(_ box: Box, _ id: String, level: String? = nil) throws -> (card: Card, reverse: Card?) {
        try box.add(front: Asset(name: "front.txt", text: id), back: Asset(name: "back.txt", text: id.uppercased()),
                    id: id, level: level, allowDuplicateFront: true, withReverse: true)
    }

    @Test func withPacingACardAndItsReverseWaitInNewAndAreAdmittedEachAsACard() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        let hund = try addPair(f.box, "hund")
        #expect(hund.card.level == .new && hund.reverse?.level == .new)
        _ = try addPair(f.box, "katze")
        #expect(f.dir.levelOnDisk("hund.rev") == ["new"] && f.dir.levelOnDisk("katze.rev") == ["new"])
        #expect(try f.box.status().arrivals?.cards == 3)
        // A reverse waiting in new/ shows its card's sides swapped, as anywhere.
        let waiting = try f.box.show(id: "hund.rev")
        #expect(waiting.front.text == "HUND" && waiting.front.path == f.dir.path + "/new/hund/back.txt")
        // Three admissions: in the order they arrived, the reverse right after its card.
        _ = try f.box.prepare()
        #expect(admitted(f) == ["hund", "hund.rev", "katze"])
        #expect(Set(f.box.queueNow) == ["hund", "hund.rev", "katze"])
        #expect(f.dir.levelOnDisk("katze.rev") == ["new"])
        // Its card admitted and its reverse not yet: the reverse still shows it.
        #expect(try f.box.show(id: "katze.rev").front.path == f.dir.path + "/1/katze/back.txt")
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(admitted(f) == ["hund", "hund.rev", "katze", "katze.rev"])
    }

    @Test func onAnOpenDayBothGoIntoLevelOneOnlyWhenTheRoomTakesTheTwo() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 4))
        try f.box.addText("a", "a", id: "a")
        _ = try f.box.prepare()
        // Three admissions left: the pair takes two, at once, both logged as admissions.
        let hund = try addPair(f.box, "hund")
        #expect(hund.card.level == .one && hund.reverse?.level == .one)
        #expect(admitted(f) == ["a", "hund", "hund.rev"])
        #expect(Set(f.box.queueNow) == ["a", "hund", "hund.rev"])
        // One left: not enough for a pair, so both wait; a lone card still takes it.
        let katze = try addPair(f.box, "katze")
        #expect(katze.card.level == .new && katze.reverse?.level == .new)
        try f.box.addText("b", "b", id: "b")
        #expect(f.dir.levelOnDisk("b") == ["1"])
        // A named level is no admission, pair or not.
        let maus = try addPair(f.box, "maus", level: "2")
        #expect(maus.card.level == .two && maus.reverse?.level == .two)
        #expect(admitted(f) == ["a", "hund", "hund.rev", "b"])
    }

    @Test func aBatchPutsEachReverseBesideItsCard() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 2))
        let cards = ["eins", "zwei"].map { NewCard(front: Asset(name: "front.txt", text: $0), back: Asset(name: "back.txt", text: $0 + "!"), id: $0) }
        let outcome = try f.box.addMany(cards, allowDuplicateFront: true, withReverse: true)
        #expect(outcome.added.map(\.level) == [.new, .new])
        #expect(outcome.added.map(\.reverse) == ["eins.rev", "zwei.rev"])
        #expect(f.dir.levelOnDisk("zwei.rev") == ["new"])
        _ = try f.box.prepare()
        #expect(admitted(f) == ["eins", "eins.rev"])
        // The day's room is spent: a later batch waits, pairs together.
        let later = try f.box.addMany([NewCard(front: Asset(name: "front.txt", text: "drei"), back: Asset(name: "back.txt", text: "3"), id: "drei")],
                                      allowDuplicateFront: true, withReverse: true)
        #expect(later.added.map(\.level) == [.new])
        #expect(f.dir.levelOnDisk("drei.rev") == ["new"])
    }

    @Test func aReverseOfACardInAPlaceGoesThereToo() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 1))
        try f.box.addText("hund", "dog", id: "hund")
        #expect(try f.box.addReverse(of: "hund", reverseID: nil, level: nil).level == .new)
        try f.box.addText("katze", "cat", id: "katze", level: "3")
        _ = try f.box.suspend(ids: ["katze"])
        #expect(try f.box.addReverse(of: "katze", reverseID: nil, level: nil).level == .suspended)
        // A level named is kept.
        #expect(try f.box.addReverse(of: "katze", reverseID: "katze-2", level: "2").level == .two)
    }

    @Test func aReverseIsSuspendedAndUnsuspendedAloneAndKeepsItsCardsPaths() throws {
        let f = try BoxFixture()
        _ = try addPair(f.box, "hund", level: "3")
        let suspended = try f.box.suspend(ids: ["hund.rev"])
        #expect(suspended.map(\.level) == [.suspended])
        // Its sides are the card's files, which did not move.
        #expect(suspended.first?.front.path == f.dir.path + "/3/hund/back.txt")
        #expect(f.dir.levelOnDisk("hund") == ["3"] && f.dir.levelOnDisk("hund.rev") == ["suspended"])
        #expect(try f.box.show(id: "hund.rev").front.text == "HUND")
        // The card suspended, its reverse stays where it is and still shows it.
        _ = try f.box.unsuspend(ids: ["hund.rev"])
        _ = try f.box.suspend(ids: ["hund"])
        #expect(f.dir.levelOnDisk("hund.rev") == ["3"])
        #expect(try f.box.show(id: "hund.rev").front.path == f.dir.path + "/suspended/hund/back.txt")
        let moved = try f.box.move(id: "hund.rev", level: "5")
        #expect(moved.front.path == f.dir.path + "/suspended/hund/back.txt")
        #expect(try f.box.doctor().isEmpty)
    }

    /// An import of an export gives a reverse back its own tags and `type-answer` (R28, R32).
    @Test func aReverseMayBeAddedWithItsOwnTagsAndTypeAnswer() throws {
        let f = try BoxFixture()
        try f.box.addText("hund", "dog", id: "hund")
        _ = try f.box.tag(id: "hund", tags: ["de", "animals"])
        let reverse = try f.box.addReverse(of: "hund", reverseID: "dog", level: "3", tags: ["en"], typeAnswer: true)
        #expect(reverse.tags == ["en"] && reverse.level == .three && reverse.reverseOf == "hund")
        #expect(f.dir.read("3/dog/tags") == "en\n" && f.dir.exists("3/dog/type-answer") && !f.dir.exists("1/hund/type-answer"))
        #expect(TypedAnswer.expected(reverse, everyCard: false) == "hund")
        let bare = try f.box.addReverse(of: "hund", reverseID: nil, level: nil, tags: [])
        #expect(bare.tags.isEmpty && !f.dir.exists("1/hund.rev/tags") && !f.dir.exists("1/hund.rev/type-answer"))
        #expect(throws: BoxError.self) { try f.box.addReverse(of: "hund", reverseID: "x", level: nil, tags: ["bad tag"]) }
        #expect(!f.dir.exists("1/x"))
    }

    @Test func aReverseHasTagsOfItsOwnStartingAsACopyOfItsCards() throws {
        let f = try BoxFixture()
        try f.box.addText("hund", "dog", id: "hund")
        _ = try f.box.tag(id: "hund", tags: ["de", "animals"])
        let reverse = try f.box.addReverse(of: "hund", reverseID: nil, level: nil)
        #expect(reverse.tags == ["de", "animals"])
        #expect(f.dir.read("1/hund.rev/tags") == "de\nanimals\n")
        // Tagged apart from then on: each its own file.
        #expect(try f.box.tag(id: "hund.rev", tags: ["de:production"]).tags == ["de", "animals", "de:production"])
        #expect(try f.box.untag(id: "hund", tags: ["animals"]).tags == ["de"])
        #expect(try f.box.show(id: "hund.rev").tags == ["de", "animals", "de:production"])
        #expect(f.dir.read("1/hund/tags") == "de\n")
        #expect(f.dir.read("1/hund.rev/reverse-of") == "hund\n")
        // Filters and practice see each direction by its own tags.
        #expect(try f.box.list(level: nil, withText: false, filter: TagFilter(tags: ["de"])).map(\.id) == ["hund", "hund.rev"])
        #expect(try f.box.list(level: nil, withText: false, filter: TagFilter(tags: ["de:production"])).map(\.id) == ["hund.rev"])
        #expect(try f.box.tagCounts() == [TagCount(tag: "animals", cards: 1), TagCount(tag: "de", cards: 2),
                                          TagCount(tag: "de:production", cards: 1)])
        let practice = try f.box.practiceCards(PracticeSelection(filter: TagFilter(tags: ["de"])))
        #expect(practice.map(\.id) == ["hund", "hund.rev"])
        #expect(practice.last?.front.text == "dog" && practice.last?.back.text == "hund")
        // A rename of the card rewrites the reverse's reverse-of and keeps its tags.
        _ = try f.box.rename(id: "hund", to: "der-hund")
        #expect(f.dir.read("1/hund.rev/reverse-of") == "der-hund\n")
        #expect(try f.box.show(id: "hund.rev").tags == ["de", "animals", "de:production"])
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func aReverseMadeWithACardHasNoTagsUntilTagged() throws {
        let f = try BoxFixture()
        let pair = try addPair(f.box, "hund")
        #expect(pair.card.tags == [] && pair.reverse?.tags == [])
        #expect(!f.dir.exists("1/hund.rev/tags"))
    }
}
