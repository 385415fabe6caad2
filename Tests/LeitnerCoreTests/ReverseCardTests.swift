import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R28: a reverse card is a directory holding `reverse-of` and no sides, served with the sides
/// of the card it names swapped; it has its own level and log lines; it is damaged (R21) when
/// that card is gone or is a reverse itself, or when it has sides of its own; a rename of the
/// original rewrites it, a delete takes it along unless asked to keep it.
@Suite struct ReverseCardTests {
    /// A box with card `hund` (front "dog", back "Hund") and its reverse `hund.rev`.
    func withReverse(_ body: (Box, TemporaryDirectory, ManualClock) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        let added = try box.add(front: Asset(name: "front.txt", text: "dog"), back: Asset(name: "back.txt", text: "Hund"),
                                id: "hund", level: nil, allowDuplicateFront: true, withReverse: true)
        #expect(added.reverse?.id == "hund.rev")
        try body(box, dir, clock)
    }

    @Test func aReverseIsServedWithTheSidesSwapped() throws {
        try withReverse { box, dir, _ in
            #expect(dir.snapshot() .contains("/1/hund.rev/reverse-of = hund\n"))
            #expect(!dir.exists("1/hund.rev/front.txt"))
            let reverse = try box.show(id: "hund.rev")
            #expect(reverse.reverseOf == "hund" && reverse.level == .one)
            #expect(reverse.front.text == "Hund" && reverse.back.text == "dog")
            #expect(reverse.front.path == dir.path + "/1/hund/back.txt")
            #expect(try box.show(id: "hund").reverseOf == nil)
            #expect(try box.readAsset(id: "hund.rev", side: .front).data == Array("Hund".utf8))
            // Both are listed and counted, each its own card.
            #expect(try box.list(level: nil, withText: false).map(\.id) == ["hund", "hund.rev"])
            #expect(try box.status().counts[.one] == 2)
            #expect(try box.log(since: nil, limit: nil).filter { $0.event == .add }.map(\.id) == ["hund", "hund.rev"])
        }
    }

    @Test func anEditOfEitherShowsInBoth() throws {
        try withReverse { box, _, _ in
            _ = try box.edit(id: "hund", front: nil, back: Asset(name: "back.txt", text: "der Hund"))
            #expect(try box.show(id: "hund.rev").front.text == "der Hund")
            // The reverse's front is the original's back.
            let (edited, changed) = try box.edit(id: "hund.rev", front: nil, back: Asset(name: "back.txt", text: "a dog"))
            #expect(changed && edited.back.text == "a dog" && edited.reverseOf == "hund")
            #expect(try box.show(id: "hund").front.text == "a dog")
            #expect(try box.log(since: nil, limit: nil).filter { $0.event == .edit }.map(\.id) == ["hund", "hund"])
        }
    }

    @Test func theDailyTestQueuesAReverseAsACardOfItsOwn() throws {
        try withReverse { box, _, _ in
            _ = try box.prepare()
            #expect(Set(box.test!.queue) == ["hund", "hund.rev"])
            _ = try box.grade(id: "hund.rev", correct: true, answerMs: 5)
            #expect(try box.show(id: "hund.rev").level == .two)
            #expect(try box.show(id: "hund").level == .one)
            #expect(box.test!.queue == ["hund"])
        }
    }

    @Test func renamingTheOriginalRewritesItsReverses() throws {
        try withReverse { box, dir, _ in
            _ = try box.addReverse(of: "hund", reverseID: "hund-2", level: "3")
            _ = try box.rename(id: "hund", to: "dog")
            #expect(dir.snapshot().contains("/1/hund.rev/reverse-of = dog\n"))
            #expect(dir.snapshot().contains("/3/hund-2/reverse-of = dog\n"))
            #expect(try box.show(id: "hund.rev").front.text == "Hund")
            #expect(try box.doctor().isEmpty)
            let events = try box.log(since: nil, limit: nil).suffix(3).map { "\($0.event) \($0.id ?? "")" }
            #expect(events == ["rename hund", "edit hund-2", "edit hund.rev"])
        }
    }

    @Test func aReverseFoundAfterARestartIsRewrittenToo() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        do {
            let box = try Box.open(dir, clock: clock)
            defer { box.close() }
            try box.addText("cat", "Katze", id: "katze")
        }
        // Made by hand while no daemon ran, under a name that is not ID.rev.
        dir.write("4/back-to-front/reverse-of", "katze\n")
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        _ = try box.rename(id: "katze", to: "cat")
        #expect(try box.show(id: "back-to-front").reverseOf == "cat")
        #expect(try box.show(id: "back-to-front").back.text == "cat")
    }

    @Test func deletingTheOriginalDeletesItsReverses() throws {
        try withReverse { box, dir, _ in
            _ = try box.prepare()
            #expect(try box.delete(id: "hund", keepReverses: false) == ["hund.rev"])
            #expect(!dir.exists("1/hund.rev") && !dir.exists("1/hund"))
            #expect(box.test!.queue.isEmpty)
            #expect(try box.log(since: nil, limit: nil).filter { $0.event == .delete }.map(\.id) == ["hund", "hund.rev"])
        }
    }

    @Test func keptReversesAreDanglingAndReported() throws {
        try withReverse { box, dir, _ in
            _ = try box.prepare()
            #expect(try box.delete(id: "hund", keepReverses: true) == ["hund.rev"])
            #expect(dir.exists("1/hund.rev/reverse-of"))
            #expect(box.test!.queue.isEmpty)
            let problems = try box.doctor()
            #expect(problems.count == 1)
            #expect(problems.first?.kind == .damagedCard && problems.first?.path == dir.path + "/1/hund.rev")
            #expect(problems.first?.reason.contains("dangling") == true)
            #expect(problems.first?.advice.contains("leitnerctl delete hund.rev") == true)
            #expect(throws: BoxError.self) { try box.show(id: "hund.rev") }
            // The original back by hand: the reverse is sound again and joins the counts.
            dir.write("1/hund/front.txt", "dog")
            dir.write("1/hund/back.txt", "Hund")
            #expect(try box.status().counts[.one] == 2)
            #expect(try box.show(id: "hund.rev").front.text == "Hund")
        }
    }

    @Test func aReverseOfAReverseIsRefusedAndDamaged() throws {
        try withReverse { box, dir, _ in
            #expect(throws: BoxError.reverseOfReverse(id: "hund.rev", reverseOf: "hund")) {
                try box.addReverse(of: "hund.rev", reverseID: nil, level: nil)
            }
            #expect(!dir.exists("1/hund.rev.rev"))
            dir.write("1/twice/reverse-of", "hund.rev")
            let problems = try box.doctor()
            #expect(problems.map(\.path) == [dir.path + "/1/twice"])
            #expect(problems.first?.reason.contains("a reverse of a reverse") == true)
            #expect(problems.first?.advice.contains("(hund)") == true)
        }
    }

    @Test func aReverseWithSidesOrABadIdIsDamaged() throws {
        try withReverse { box, dir, _ in
            dir.write("1/hund.rev/front.txt", "extra")
            dir.write("2/bad/reverse-of", "-nope\n")
            dir.write("2/self/reverse-of", "self")
            let problems = try box.doctor().sorted { $0.path < $1.path }
            #expect(problems.map(\.path) == ["1/hund.rev", "2/bad", "2/self"].map { dir.path + "/" + $0 })
            #expect(problems[0].reason.contains("sides of its own"))
            #expect(problems[1].reason.contains("not a valid card id"))
            #expect(problems[2].reason.contains("of itself"))
            // Nothing was touched (R21).
            #expect(dir.exists("1/hund.rev/front.txt") && dir.exists("2/bad/reverse-of"))
        }
    }

    @Test func aHandMadeReverseIsTakenIn() throws {
        try withReverse { box, dir, _ in
            _ = try box.prepare()
            mkdir(dir.path + "/1/dog-de", 0o755)
            dir.write("1/dog-de/reverse-of", "hund\n")
            #expect(try box.show(id: "dog-de").front.text == "Hund")
            #expect(box.test!.queue.contains("dog-de"))
            // Moved with mv, it keeps being a reverse.
            dir.move("1/dog-de", "5/dog-de")
            #expect(try box.show(id: "dog-de").level == .five)
            #expect(try box.delete(id: "hund", keepReverses: false) == ["dog-de", "hund.rev"])
        }
    }

    /// The reverse index, once built by a delete, follows what changes after it from the store's
    /// change feed: a reverse made by hand, a rename that rewrites reverses, a reverse deleted
    /// by hand, one made by hand in another level.
    @Test func theReverseIndexFollowsTheChangesAfterItIsBuilt() throws {
        try withReverse { box, dir, _ in
            _ = try box.addText("cat", "Katze", id: "katze")
            #expect(try box.delete(id: "katze", keepReverses: false) == [])
            mkdir(dir.path + "/1/dog-de", 0o755)
            dir.write("1/dog-de/reverse-of", "hund\n")
            _ = try box.rename(id: "hund", to: "der-hund")
            #expect(dir.read("1/dog-de/reverse-of") == "der-hund\n" && dir.read("1/hund.rev/reverse-of") == "der-hund\n")
            _ = try box.add(front: Asset(name: "front.txt", text: "fish"), back: Asset(name: "back.txt", text: "Fisch"),
                            id: "fisch", level: nil, allowDuplicateFront: true, withReverse: true)
            dir.removeTree("1/fisch.rev")
            mkdir(dir.path + "/3/fish-de", 0o755)
            dir.write("3/fish-de/reverse-of", "fisch\n")
            #expect(try box.delete(id: "fisch", keepReverses: false) == ["fish-de"])
            #expect(try box.delete(id: "der-hund", keepReverses: false) == ["dog-de", "hund.rev"])
        }
    }

    /// A `reverse-of` rewritten in place by hand (the card not moved, its directory not renamed)
    /// once the reverse index is built: the next request that asks for reverses reads the new
    /// name (R13, R28), as it did before the index followed the change feed.
    @Test func aReverseOfEditedInPlaceByHandIsSeenByTheNextRequest() throws {
        try withReverse { box, dir, _ in
            _ = try box.addText("horse", "Pferd", id: "pferd")
            _ = try box.addText("cat", "Katze", id: "katze")
            #expect(try box.delete(id: "katze", keepReverses: false) == [])
            dir.write("1/hund.rev/reverse-of", "pferd\n")
            #expect(try box.show(id: "hund.rev").front.text == "Pferd")
            #expect(try box.delete(id: "hund", keepReverses: false) == [])
            #expect(dir.exists("1/hund.rev"))
            #expect(try box.delete(id: "pferd", keepReverses: false) == ["hund.rev"])
        }
    }

    @Test func importWithReverseAddsEachBesideItsCard() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        try box.addText("x", "y", id: "taken.rev")
        let outcome = try box.addMany([
            NewCard(front: Asset(name: "front.txt", text: "eins"), back: Asset(name: "back.txt", text: "one"), level: "2"),
            NewCard(front: Asset(name: "front.txt", text: "zwei"), back: Asset(name: "back.txt", text: "two")),
            NewCard(front: Asset(name: "front.txt", text: "drei"), back: Asset(name: "back.txt", text: "three"), id: "taken"),
        ], allowDuplicateFront: true, withReverse: true)
        #expect(outcome.added.map(\.reverse) == ["eins.rev", "zwei.rev"])
        #expect(outcome.refused.map(\.error) == [.cardExists(id: "taken.rev")])
        #expect(try box.show(id: "eins.rev").level == .two)
        #expect(try box.show(id: "zwei.rev").back.text == "zwei")
        #expect(!dir.exists("1/taken"))
    }

    @Test func anAddWhoseReverseIdIsTakenAddsNothing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        try box.addText("x", "y", id: "a.rev")
        #expect(throws: BoxError.cardExists(id: "a.rev")) {
            try box.add(front: Asset(name: "front.txt", text: "a"), back: Asset(name: "back.txt", text: "b"), id: "a", level: nil,
                        allowDuplicateFront: true, withReverse: true)
        }
        #expect(!dir.exists("1/a"))
    }

    @Test func anImageFrontIsTheReversesBack() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let added = try box.add(front: Asset(name: "front.png", content: png), back: Asset(name: "back.txt", text: "Katze"),
                                id: "cat", level: nil, allowDuplicateFront: true, withReverse: true)
        let reverse = try #require(added.reverse)
        #expect(reverse.front.text == "Katze" && reverse.back.mediaType == "image/png")
        #expect(try box.readAsset(id: "cat.rev", side: .back).data == png)
    }
}
