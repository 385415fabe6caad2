import LeitnerVarlink
import Testing
@testable import LeitnerClient
@testable import LeitnerCore
@testable import LeitnerProtocol

@Suite struct ImageTests {
    /// The first 24 bytes of a PNG of `width` × `height`.
    func pngHeader(_ width: Int, _ height: Int) -> [UInt8] {
        func be(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be(width) + be(height)
    }

    @Test func sizeFromPNGAndJPEGHeaders() {
        #expect(ImageSize(pngHeader(640, 480)) == ImageSize(width: 640, height: 480))
        // SOI, an APP0 segment of 16 bytes, then SOF0 with height 200 and width 300.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array(repeating: 0, count: 14)
            + [0xFF, 0xC0, 0, 17, 8, 0, 200, 1, 44, 3, 0, 0, 0, 0, 0, 0]
        #expect(ImageSize(jpeg) == ImageSize(width: 300, height: 200))
        #expect(ImageSize(Array("GIF89a".utf8)) == nil)
        #expect(ImageSize([]) == nil)
    }

    @Test func cellsKeepTheAspectRatioWithinTheBox() {
        // 800×400 into 60×20: full width, half as many rows as a cell is twice as high.
        #expect(ImageSize(width: 800, height: 400).cells(columns: 60, rows: 20) == (60, 15))
        // A tall image is limited by the rows, and narrowed to keep its shape.
        #expect(ImageSize(width: 400, height: 1600).cells(columns: 60, rows: 10) == (5, 10))
        // An icon stays small: 8 pixels a column.
        #expect(ImageSize(width: 64, height: 64).cells(columns: 60, rows: 20) == (8, 4))
    }

    @Test func kittyChunksCarryTheBytesAsTheyAre() {
        let bytes = (0..<10_000).map { UInt8($0 % 251) }
        let out = ImageEscapes.kitty(png: bytes, columns: 30, rows: 10)
        let commands = out.split(separator: "\u{1B}\\").map { $0.dropFirst(3) }  // drop ESC _ G
        #expect(commands.count == 4)  // 13336 base64 bytes in chunks of 4096
        #expect(commands[0].hasPrefix("a=T,f=100,t=d,q=2,C=1,c=30,r=10,m=1;"))
        #expect(commands.dropFirst().dropLast().allSatisfy { $0.hasPrefix("m=1;") })
        #expect(commands.last!.hasPrefix("m=0;"))
        let payload = commands.map { $0.split(separator: ";", maxSplits: 1)[1] }
        #expect(payload.dropLast().allSatisfy { $0.count == 4096 })
        #expect(Base64.decode(payload.joined()) == bytes)
        // A small image is one chunk with m=0.
        #expect(ImageEscapes.kitty(png: [1, 2, 3], columns: 1, rows: 1) == "\u{1B}_Ga=T,f=100,t=d,q=2,C=1,c=1,r=1,m=0;AQID\u{1B}\\")
    }

    @Test func itermInlineImage() {
        #expect(ImageEscapes.iterm([1, 2, 3], columns: 20, rows: 5)
                == "\u{1B}]1337;File=inline=1;size=3;width=20;height=5;preserveAspectRatio=1:AQID\u{07}")
    }

    @Test func detectionFromTheTerminalsAnswers() {
        func choose(_ reply: String, _ environment: [String: String] = [:]) -> ImageProtocol {
            ImageProtocolDetection.choose(reply: Array(reply.utf8), environment: environment)
        }
        #expect(choose("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c") == .kitty)
        #expect(choose("\u{1B}[?63;1;2;4;6;9;15;22c") == .sixel)
        #expect(choose("\u{1B}[?62;22c") == .blocks)
        #expect(choose("") == .blocks)
        #expect(choose("\u{1B}[?62;22c", ["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(choose("\u{1B}[?62;4c", ["LC_TERMINAL": "iTerm2"]) == .iterm)
        #expect(choose("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c", ["TERM_PROGRAM": "WezTerm"]) == .kitty)
        // An error to the kitty query is no OK.
        #expect(choose("\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[?62;4c") == .sixel)
    }

    @Test func theAnswerIsCompleteWithDA1() {
        #expect(!ImageProtocolDetection.isComplete(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)))
        #expect(!ImageProtocolDetection.isComplete(Array("\u{1B}[?62;4".utf8)))
        #expect(ImageProtocolDetection.isComplete(Array("\u{1B}[?62;4c".utf8)))
        #expect(ImageProtocolDetection.deviceAttributes(Array("\u{1B}[?63;1;4c".utf8)) == [63, 1, 4])
    }

    @Test func trueColourFromCOLORTERM() {
        #expect(ImageProtocolDetection.trueColor(environment: ["COLORTERM": "truecolor"]))
        #expect(ImageProtocolDetection.trueColor(environment: ["COLORTERM": "24bit"]))
        #expect(!ImageProtocolDetection.trueColor(environment: [:]))
    }

    /// `--images=` and `Images=` take the same names; the configuration checks them in the core.
    @Test func theNamesAgreeWithTheConfiguration() throws {
        #expect(ImageProtocol.allCases.map(\.rawValue) == Configuration.imageProtocols)
        #expect(try ImageProtocol.named("auto") == nil)
        #expect(try ImageProtocol.named("sixel") == .sixel)
        #expect(throws: ImageProtocolNameError(name: "ascii")) { try ImageProtocol.named("ascii") }
    }
}
