import Testing
@testable import leitnerd

@Suite struct CommandLineOptionsTests {
    @Test func readsEveryFlagInBothSpellings() throws {
        let options = try CommandLineOptions.parse(["--config", "/c.conf", "--store=/s", "--socket", "/r/s.sock"])
        #expect(options == CommandLineOptions(configPath: "/c.conf", storePath: "/s", socketPath: "/r/s.sock"))
        #expect(try CommandLineOptions.parse([]) == CommandLineOptions())
        #expect(try CommandLineOptions.parse(["--help"]).showHelp)
        #expect(try CommandLineOptions.parse(["--version"]).showVersion)
    }

    @Test func takesTheActivatorsVarlinkAddress() throws {
        let options = try CommandLineOptions.parse(["--varlink=unix:/run/x.sock;mode=0600"])
        #expect(options.socketPath == "/run/x.sock")
        #expect(options.varlinkAddress == "unix:/run/x.sock;mode=0600")
    }

    @Test(arguments: [
        (["--stor", "/s"], CommandLineOptions.ArgumentError.unknownOption("--stor")),
        (["--store"], .missingValue("--store")),
        (["serve"], .unexpectedArgument("serve")),
        (["--help=yes"], .unknownOption("--help")),
        (["--varlink=tcp:127.0.0.1:1"], .badVarlinkAddress("tcp:127.0.0.1:1")),
        (["--varlink=unix:relative.sock"], .badVarlinkAddress("unix:relative.sock")),
    ])
    func refusesWhatItDoesNotKnow(arguments: [String], error: CommandLineOptions.ArgumentError) {
        #expect(throws: error) { try CommandLineOptions.parse(arguments) }
    }
}
