import Testing
@testable import leitnerd
import LeitnerTestSupport

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

/// `ExitIdleAfter=` by who started the daemon (docs/daemon.md, "Life cycle"): 10 minutes for a
/// daemon leitnerctl started, never otherwise; a value in the file wins, `0` meaning never.
@Suite struct ExitIdleAfterTests {
    func exitIdleAfter(file: String, autostarted: Bool) throws -> Duration? {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // A device named here: the test never makes one in the real home.
        directory.write("leitner.conf", file + "\n[Sync]\nDevice=unit\n")
        let config = directory.path + "/leitner.conf"
        var options = try CommandLineOptions.parse(["--config", config, "--socket", directory.path + "/s.sock"]
                                                   + (autostarted ? ["--autostarted"] : []))
        #expect(options.autostarted == autostarted)
        options.storePath = directory.path + "/store"
        return try DaemonSettings.load(options).exitIdleAfter
    }

    @Test func autostartedDaemonsExitAfterTenIdleMinutes() throws {
        #expect(try exitIdleAfter(file: "", autostarted: true) == .seconds(600))
        #expect(try exitIdleAfter(file: "[Daemon]\nExitIdleAfter=\n", autostarted: true) == .seconds(600))
        #expect(try exitIdleAfter(file: "[Daemon]\nExitIdleAfter=30s\n", autostarted: true) == .seconds(30))
        #expect(try exitIdleAfter(file: "[Daemon]\nExitIdleAfter=0\n", autostarted: true) == nil)
    }

    @Test func otherDaemonsNeverExitIdleUnlessTold() throws {
        #expect(try exitIdleAfter(file: "", autostarted: false) == nil)
        #expect(try exitIdleAfter(file: "[Daemon]\nExitIdleAfter=2min\n", autostarted: false) == .seconds(120))
    }
}
