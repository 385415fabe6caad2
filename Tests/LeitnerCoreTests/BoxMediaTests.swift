import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R31: a Markdown side lists the media it refers to that are files beside it; they are read by
/// name, never by path; they travel with the card; what cannot be shown is reported by `doctor`.
@Suite struct BoxMediaTests {
    func withBox(_ body: (Box, TemporaryDirectory) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        dir.write("1/katze/front.md", "![eine Katze](katze.png) [sound:miau.mp3]\n\n![again](katze.png)")
        dir.write("1/katze/back.md", "cat [sound:miau.mp3] ![gone](fehlt.png) ![x](../hund/back.md)")
        dir.write("1/katze/katze.png", "PNG")
        dir.write("1/katze/miau.mp3", "ID3")
        dir.write("1/hund/front.md", "Hund")
        dir.write("1/hund/back.md", "dog")
        try body(box, dir)
    }

    func read(_ box: Box, _ id: String, name: String) throws -> String {
        String(decoding: try box.readMedium(id: id, name: name).data, as: UTF8.self)
    }

    @Test func aSideListsItsMediaThatAreThere() throws {
        try withBox { box, dir in
            let card = try box.show(id: "katze")
            let path = dir.path + "/1/katze/"
            #expect(card.front.media == [Medium(name: "katze.png", mediaType: "image/png", path: path + "katze.png"),
                                         Medium(name: "miau.mp3", mediaType: "audio/mpeg", path: path + "miau.mp3")])
            #expect(card.back.media.map(\.name) == ["miau.mp3"])
            #expect(try box.show(id: "hund").front.media.isEmpty)
            // Without the text, nothing is looked up.
            #expect(try box.list(level: "1", withText: false).allSatisfy { $0.front.media.isEmpty })
        }
    }

    @Test func aMediumIsReadByTheNameASideListsAndNothingElse() throws {
        try withBox { (box, _) throws in
            #expect(try read(box, "katze", name: "katze.png") == "PNG")
            for name in ["fehlt.png", "../hund/back.md", "front.md", "tags", "/etc/passwd", "", "."] {
                #expect(throws: BoxError.invalidAsset(name: name, reason: "no side of 'katze' shows a medium of that name")) {
                    try box.readMedium(id: "katze", name: name)
                }
            }
            #expect(throws: BoxError.noSuchCard(id: "nobody")) { try box.readMedium(id: "nobody", name: "katze.png") }
        }
    }

    @Test func aLinkOutOfTheStoreIsNoMediumAndIsReported() throws {
        try withBox { box, dir in
            dir.write("1/hund/front.md", "![x](out.png) ![y](in.png)")
            #expect(symlink("/etc/hostname", dir.path + "/1/hund/out.png") == 0)
            #expect(symlink("../katze/katze.png", dir.path + "/1/hund/in.png") == 0)
            let card = try box.show(id: "hund")
            #expect(card.front.media.map(\.name) == ["in.png"])
            #expect(try read(box, "hund", name: "in.png") == "PNG")
            let problems = try box.doctor().filter { $0.path.hasSuffix("/hund/front.md") }
            #expect(problems.map(\.kind) == [.badMedium])
            #expect(problems.first?.reason.contains("a link leading out of the store") == true)
        }
    }

    @Test func doctorReportsAMissingFileAndANameThatIsAPath() throws {
        try withBox { box, dir in
            let problems = try box.doctor()
            #expect(problems.map(\.kind) == [.badMedium, .badMedium])
            #expect(problems.allSatisfy { $0.path == dir.path + "/1/katze/back.md" })
            #expect(problems[0].reason == "![gone](fehlt.png) names no file that can be shown: 'fehlt.png' is not in '\(dir.path)/1/katze'; shown as text")
            #expect(problems[1].reason == "'../hund/back.md' in ![x](../hund/back.md) is a path, not a file name: shown as text")
            // Mended: the file put there, the reference written as a name.
            dir.write("1/katze/fehlt.png", "PNG")
            dir.write("1/katze/back.md", "cat ![x](fehlt.png)")
            #expect(try box.doctor().isEmpty)
        }
    }

    @Test func mediaTravelWithTheCard() throws {
        try withBox { box, dir in
            _ = try box.move(id: "katze", level: "3")
            #expect(try box.show(id: "katze").front.media.map(\.path) == [dir.path + "/3/katze/katze.png", dir.path + "/3/katze/miau.mp3"])
            _ = try box.suspend(ids: ["katze"])
            #expect(dir.exists("suspended/katze/katze.png") && dir.exists("suspended/katze/miau.mp3"))
            _ = try box.rename(id: "katze", to: "cat")
            #expect(try read(box, "cat", name: "miau.mp3") == "ID3")
            _ = try box.unsuspend(ids: ["cat"])
            #expect(try box.show(id: "cat").front.media.count == 2)
        }
    }

    @Test func aReverseCardShowsItsOriginalsMedia() throws {
        try withBox { box, dir in
            _ = try box.addReverse(of: "katze", reverseID: nil, level: "2")
            let reverse = try box.list(level: "2", withText: true).first!
            #expect(reverse.back.media.map(\.path) == [dir.path + "/1/katze/katze.png", dir.path + "/1/katze/miau.mp3"])
            #expect(try read(box, reverse.id, name: "katze.png") == "PNG")
        }
    }

    @Test func aClozeNotesMediaServeItsCards() throws {
        try withBox { box, dir in
            dir.write("notes/tier/text.md", "![bild](katze.png) Die {{c1::Katze [sound:miau.mp3]}} und {{c2::der Hund}}")
            dir.write("notes/tier/extra.md", "![extra](hund.png)")
            dir.write("notes/tier/katze.png", "NOTE-PNG")
            dir.write("notes/tier/miau.mp3", "NOTE-ID3")
            dir.write("1/tier.c1/cloze-of", "tier\nc1\n")
            dir.write("1/tier.c2/cloze-of", "tier\nc2\n")
            let one = try box.show(id: "tier.c1")
            #expect(one.front.media.map(\.name) == ["katze.png"])  // the sound is inside the hidden deletion
            #expect(one.back.media.map(\.path) == [dir.path + "/notes/tier/katze.png", dir.path + "/notes/tier/miau.mp3"])
            #expect(try box.show(id: "tier.c2").front.media.map(\.name) == ["katze.png", "miau.mp3"])
            #expect(try read(box, "tier.c2", name: "miau.mp3") == "NOTE-ID3")
            // The extra's picture is missing: reported on the note's text.
            #expect(try box.doctor().contains { $0.kind == .badMedium && $0.reason.hasPrefix("![extra](hund.png)") })
        }
    }

    @Test func addMediaWritesThemDurablyChecksTheirNamesAndKeepsEachOnce() throws {
        try withBox { (box, dir) throws in
            let png = Asset(name: "katze.png", content: Array("PNG".utf8))
            let other = Asset(name: "katze.png", content: Array("OTHER".utf8))
            let sound = Asset(name: "bell.ogg", content: Array("OGG".utf8))
            // The same bytes under the same name are kept as they are; other bytes get a number.
            let (card, names) = try box.addMedia(id: "katze", media: [png, other, sound, other])
            #expect(names == ["katze.png", "katze-2.png", "bell.ogg", "katze-2.png"])
            let files = dir.snapshot().filter { $0.hasPrefix("/1/katze/") && !$0.hasPrefix("/1/katze/front.md") && !$0.hasPrefix("/1/katze/back.md") }
            #expect(files == ["/1/katze/", "/1/katze/bell.ogg = OGG", "/1/katze/katze-2.png = OTHER", "/1/katze/katze.png = PNG", "/1/katze/miau.mp3 = ID3"])
            #expect(card.front.media.map(\.name) == ["katze.png", "miau.mp3"])
            #expect(try read(box, "katze", name: "katze.png") == "PNG")
            // Refused before anything is written.
            for bad in ["../x.png", "front.png", "notes.pdf", ".x.png", "a/b.mp3"] {
                #expect(throws: BoxError.self) { try box.addMedia(id: "katze", media: [sound, Asset(name: bad, content: [1])]) }
            }
            #expect(!dir.exists("1/katze/bell-2.ogg"))
            #expect(throws: BoxError.noSuchCard(id: "nobody")) { try box.addMedia(id: "nobody", media: [png]) }
            // The media move with the card, and the log has the edit.
            _ = try box.move(id: "katze", level: "4")
            #expect(dir.exists("4/katze/katze-2.png") && dir.exists("4/katze/bell.ogg"))
            #expect(try box.log(since: nil, limit: nil).contains { $0.event == .edit && $0.id == "katze" })
        }
    }
}

