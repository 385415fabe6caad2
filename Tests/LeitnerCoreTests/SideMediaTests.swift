import Testing
@testable import LeitnerCore

/// R31: the one parser of a side's media references. A valid reference names one file of the
/// right kind; a hostile name is refused and kept as text; what is not a reference is text.
@Suite struct SideMediaTests {
    @Test func imagesAndSoundsAreFoundInOrderAndTheTextIsKept() {
        let side = "# Katze\n![eine Katze](katze.png) miaut: [sound:miau.mp3]\n\n![again](katze.png \"title\")"
        let media = SideMedia(parsing: side)
        #expect(media.pieces == [
            .text("# Katze\n"),
            .image(alt: "eine Katze", name: "katze.png", written: "![eine Katze](katze.png)"),
            .text(" miaut: "),
            .sound(name: "miau.mp3", written: "[sound:miau.mp3]"),
            .text("\n\n"),
            .image(alt: "again", name: "katze.png", written: "![again](katze.png \"title\")"),
        ])
        #expect(media.references == [SideMedia.Reference(name: "katze.png", kind: .image),
                                     SideMedia.Reference(name: "miau.mp3", kind: .sound)])
        #expect(media.pieces.map(\.written).joined() == side)
        #expect(media.refused.isEmpty)
    }

    @Test func aNameWithSpacesInAngleBracketsAndUnicodeNamesAreNames() {
        let media = SideMedia(parsing: "![x](<mein Bild.jpg>) [sound:ねこ 1.ogg] ![](Käse.webp)")
        #expect(media.references.map(\.name) == ["mein Bild.jpg", "ねこ 1.ogg", "Käse.webp"])
    }

    @Test(arguments: [
        ("![x](../x.png)", "../x.png", "is a path, not a file name"),
        ("![x](/etc/passwd.png)", "/etc/passwd.png", "is a path, not a file name"),
        ("[sound:/etc/passwd]", "/etc/passwd", "is a path, not a file name"),
        ("![x](https://example.com/a.png)", "https://example.com/a.png", "is a path, not a file name"),
        ("![x](sub/a.png)", "sub/a.png", "is a path, not a file name"),
        ("![x](..\\a.png)", "..\\a.png", "is a path, not a file name"),
        ("![x](..)", "..", "is a path, not a file name"),
        ("![x](.hidden.png)", ".hidden.png", "is a hidden file name"),
        ("[sound:]", "", "is empty"),
        ("![x](<>)", "", "is empty"),
        ("[sound:a\u{7}.mp3]", "a\u{7}.mp3", "holds a control character"),
        ("![x](notes.pdf)", "notes.pdf", "is not an image (application/pdf)"),
        ("![x](song.mp3)", "song.mp3", "is not an image (audio/mpeg)"),
        ("[sound:cat.png]", "cat.png", "is not a sound (image/png)"),
        ("[sound:tags]", "tags", "is not a sound (application/octet-stream)"),
    ])
    func hostileNamesAreRefusedAndKeptAsWritten(side: String, name: String, reason: String) {
        let media = SideMedia(parsing: "a " + side + " b")
        #expect(media.references.isEmpty)
        #expect(media.refused.map(\.name) == [name])
        #expect(media.refused.map(\.reason) == [reason])
        #expect(media.pieces.map(\.written).joined() == "a " + side + " b")
        #expect(media.hasReferences)
    }

    @Test func aNameLongerThanAFileNameIsRefused() {
        let long = String(repeating: "é", count: 126) + ".png"  // 256 bytes
        #expect(SideMedia(parsing: "![x](\(long))").refused.map(\.reason) == ["is longer than 255 bytes"])
        #expect(MediaName.problem(String(repeating: "a", count: 251) + ".png") == nil)
    }

    @Test(arguments: [
        "`![x](a.png)`", "``[sound:a.mp3]``", "```\n![x](a.png)\n```", "~~~\n[sound:a.mp3]\n~~~",
        "\\![x](a.png)", "![x]", "![x](a.png", "[sound:a.mp3", "[x](a.png)", "![x](a.png b)",
        "[Sound:a.mp3]", "![x] (a.png)", "![a [b] c](a.png)",
    ])
    func whatIsNotAReferenceIsText(side: String) {
        let media = SideMedia(parsing: side)
        #expect(!media.hasReferences, "\(side)")
        #expect(media.pieces.map(\.written).joined() == side)
    }

    @Test func anUnclosedCodeSpanIsTextAndTheReferenceAfterItCounts() {
        #expect(SideMedia(parsing: "a ` b ![x](a.png)").references.map(\.name) == ["a.png"])
        #expect(SideMedia(parsing: "```\nfenced\n```\n[sound:a.mp3]").references.map(\.name) == ["a.mp3"])
    }

    @Test func theEmptySideHasNoPieces() {
        #expect(SideMedia(parsing: "").pieces.isEmpty)
        #expect(SideMedia(parsing: "\n").pieces == [.text("\n")])
    }
}
