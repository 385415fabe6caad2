import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// R31 through `Add`: a card's pictures and sounds go in with its sides, in the same change, and
/// a name R31 would not show is refused with nothing added.
@Suite struct BoxAddMediaTests {
    func withBox(_ body: (Box, TemporaryDirectory) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        try body(box, dir)
    }

    @Test func theMediaAreBesideTheSidesAndShown() throws {
        try withBox { (box, dir) throws in
            let added = try box.add(front: Asset(name: "front.md", text: "Katze ![](katze.png)"),
                                    back: Asset(name: "back.md", text: "cat [sound:miau.mp3]"), id: "katze", level: "new",
                                    allowDuplicateFront: true, withReverse: true,
                                    media: [Asset(name: "katze.png", content: [0x89, 0x50]), Asset(name: "miau.mp3", text: "ID3")])
            #expect(try FileSystem.readFile(atPath: dir.path + "/new/katze/katze.png") == [0x89, 0x50])
            #expect(try FileSystem.readFile(atPath: dir.path + "/new/katze/miau.mp3") == Array("ID3".utf8))
            #expect(try box.show(id: "katze").front.media.map(\.name) == ["katze.png"])
            #expect(added.reverse.map { $0.front.media.map(\.name) } == ["miau.mp3"])
        }
    }

    @Test func aMediumR31WouldNotShowIsRefusedAndNothingIsAdded() throws {
        try withBox { (box, dir) throws in
            let refusals: [(String, String)] = [
                ("../x.png", "the name is a path, not a file name"),
                (".hidden.png", "the name is a hidden file name"),
                ("notes.txt", "neither a picture nor a sound (text/plain)"),
                ("front.png", "a side's name: the card's front is its own file"),
                ("a.png", "given twice"),
            ]
            for (name, reason) in refusals {
                let media = name == "a.png" ? [Asset(name: name, text: "1"), Asset(name: name, text: "2")] : [Asset(name: name, text: "x")]
                #expect(throws: BoxError.invalidAsset(name: name, reason: reason)) {
                    try box.add(front: Asset(name: "front.md", text: "Hund"), back: Asset(name: "back.md", text: "dog"), id: "hund",
                                level: "new", allowDuplicateFront: true, withReverse: false, media: media)
                }
            }
            #expect(!dir.exists("new/hund"))
            #expect(try box.list(level: "new", withText: false).isEmpty)
        }
    }
}
