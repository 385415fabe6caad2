import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R29: the default store's root holds `boxes/`, the other boxes' stores; it is not a stray
/// directory of the default box, while any other unknown directory still is.
@Suite struct StoreBoxesDirectoryTests {
    @Test func theBoxesDirectoryIsNoStrayEntry() throws {
        let f = try BoxFixture()
        f.dir.write("boxes/kana/1/a/front.txt", "あ")
        f.dir.write("boxes/kana/1/a/back.txt", "a")
        f.dir.write("boxen/x/front.txt", "typo")
        let problems = try f.box.doctor()
        #expect(!problems.contains { $0.path == f.box.storePath + "/boxes" })
        #expect(problems.contains { $0.path == f.box.storePath + "/boxen" && $0.kind == .strayEntry })
        #expect(try f.box.status().counts.values.reduce(0, +) == 0)
    }
}
