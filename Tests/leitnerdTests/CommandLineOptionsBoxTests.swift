import Testing
@testable import leitnerd
import LeitnerCore
import LeitnerTestSupport

/// `leitnerd --box NAME` (R29): the box's paths as leitnerctl finds them, the flags over them,
/// and a bad name refused (exit 64) before anything is opened.
@Suite struct CommandLineOptionsBoxTests {
    @Test func readsTheBoxInBothSpellings() throws {
        #expect(try CommandLineOptions.parse(["--box", "kana"]).box == "kana")
        #expect(try CommandLineOptions.parse(["--box=猫"]).box == "猫")
        #expect(try CommandLineOptions.parse([]).box == nil)
    }

    @Test(arguments: [
        (["--box", "a/b"], CommandLineOptions.ArgumentError.badBoxName("a/b", reason: "contains '/'")),
        (["--box="], .badBoxName("", reason: "is empty")),
        (["--box"], .missingValue("--box")),
    ])
    func refusesABadName(arguments: [String], error: CommandLineOptions.ArgumentError) {
        #expect(throws: error) { try CommandLineOptions.parse(arguments) }
    }

    @Test func theReservedNamesAreRefused() {
        #expect(throws: CommandLineOptions.ArgumentError.self) { try CommandLineOptions.parse(["--box", "leitnerd"]) }
    }

    /// The store and socket of the box, unless the flags say otherwise.
    @Test func theBoxGivesTheStoreAndSocket() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // A device named here: the test never makes one in the real home.
        directory.write("kana.conf", "[Sync]\nDevice=unit\n")
        let locator = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment(), box: "kana")
        let boxed = try DaemonSettings.load(CommandLineOptions.parse(["--box", "kana", "--config", directory.path + "/kana.conf"]))
        #expect(boxed.boxOptions.storePath == locator.defaultStorePath)
        #expect(boxed.boxOptions.storePath.hasSuffix("/leitner/boxes/kana"))
        #expect(boxed.socketPath == locator.defaultSocketPath)
        let flagged = try DaemonSettings.load(CommandLineOptions.parse(["--box", "kana", "--config", directory.path + "/kana.conf",
                                                                        "--store", directory.path + "/s",
                                                                        "--socket", directory.path + "/k.sock"]))
        #expect(flagged.boxOptions.storePath == directory.path + "/s")
        #expect(flagged.socketPath == directory.path + "/k.sock")
    }
}
