@testable import LeitnerVarlink
import Testing

/// `JSONString.escapedCount` is the length `appendEscaped` writes: every byte alone, and text
/// that mixes runs with escapes past the eight-byte scan.
@Suite struct JSONStringTests {
    @Test func theCountIsTheLengthWritten() {
        var samples: [[UInt8]] = (0...255).map { [UInt8($0)] }
        samples.append(Array("plain ascii run of text".utf8))
        samples.append(Array("run then \"quote\" and \\ and \n\t\r\u{8}\u{c}\u{1}\u{1f} \u{00e9}\u{65e5} after".utf8))
        samples.append(Array("12345678\u{0}12345678\"".utf8))
        samples.append([])
        for bytes in samples {
            var written: [UInt8] = []
            bytes.withUnsafeBufferPointer { JSONString.appendEscaped($0, to: &written) }
            #expect(bytes.withUnsafeBufferPointer { JSONString.escapedCount($0) } == written.count, "\(bytes)")
        }
        #expect(JSONString.escapedCount("a\"b") == 4 && JSONString.escaped("a\"b") == Array(#"a\"b"#.utf8))
    }
}
