import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R29: box NAME's configuration, store, socket and autostart log, and the listing of the boxes
/// that exist; the default box keeps its paths.
@Suite struct ConfigurationLocatorBoxTests {
    let environment = ["XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_RUNTIME_DIR": "/run/user/7", "XDG_STATE_HOME": "/s"]

    @Test func aBoxHasItsOwnConfigurationStoreAndSocket() {
        let locator = ConfigurationLocator(environment: environment, uid: 7, home: "/home/a", box: "kana")
        #expect(locator.userConfigurationPath == "/c/leitner/kana.conf")
        #expect(locator.defaultStorePath == "/d/leitner/boxes/kana")
        #expect(locator.defaultSocketPath == "/run/user/7/leitner/kana.sock")
        // The autostarted daemon's log follows the socket's name: one log a box.
        #expect(locator.autostartLogPath(socketPath: locator.defaultSocketPath) == "/s/leitner/kana.log")
    }

    @Test func theDefaultBoxKeepsTodaysPaths() {
        let locator = ConfigurationLocator(environment: environment, uid: 7, home: "/home/a")
        #expect(locator.box == nil)
        #expect(locator.userConfigurationPath == "/c/leitner/leitner.conf")
        #expect(locator.defaultStorePath == "/d/leitner")
        #expect(locator.defaultSocketPath == "/run/user/7/leitner/leitnerd.sock")
        #expect(locator.boxesDirectory == "/d/leitner/boxes")
        #expect(locator.configurationDirectory == "/c/leitner")
        #expect(locator.locating(box: "german").defaultStorePath == "/d/leitner/boxes/german")
        #expect(locator.locating(box: "german").locating(box: nil) == locator)
    }

    @Test func aBoxWithoutXDGUsesTheHomeAndTheTmpFallback() {
        let locator = ConfigurationLocator(environment: [:], uid: 1234, home: "/home/a", box: "猫")
        #expect(locator.userConfigurationPath == "/home/a/.config/leitner/猫.conf")
        #expect(locator.defaultStorePath == "/home/a/.local/share/leitner/boxes/猫")
        #expect(locator.defaultSocketPath == "/tmp/leitner-1234/猫.sock")
    }

    /// `leitnerctl boxes` lists the directories of `boxes/` and the `NAME.conf` files, each once;
    /// the default box's leitner.conf, hidden entries, stray files and bad names are no box.
    @Test func boxNamesComeFromStoresAndConfigurationFiles() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("data/leitner/boxes/kana/1/.keep", "")
        directory.write("data/leitner/boxes/german/1/.keep", "")
        directory.write("data/leitner/boxes/.stfolder/x", "")
        directory.write("data/leitner/boxes/notes.txt", "not a box")
        directory.write("config/leitner/german.conf", "")
        directory.write("config/leitner/猫.conf", "")
        directory.write("config/leitner/leitner.conf", "")
        directory.write("config/leitner/bad name.conf", "")
        directory.write("config/leitner/README", "")
        let locator = ConfigurationLocator(environment: ["XDG_CONFIG_HOME": directory.path + "/config",
                                                         "XDG_DATA_HOME": directory.path + "/data"], uid: 1, home: "/")
        #expect(locator.boxNames() == ["german", "kana", "猫"])
        #expect(ConfigurationLocator(environment: ["XDG_CONFIG_HOME": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"],
                                     uid: 1, home: "/").boxNames() == [])
    }

    /// A box reads NAME.conf when it is there, and the embedded defaults with the box's paths when
    /// it is not (never the default box's leitner.conf); LEITNER_SOCKET is the default box's.
    @Test func aBoxReadsItsOwnFileAndNotLeitnerSocket() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("config/leitner/leitner.conf", "[Schedule]\nDayStartsAt=06:00\n")
        directory.write("config/leitner/german.conf", "[Schedule]\nDayStartsAt=05:00\n")
        let environment = ["XDG_CONFIG_HOME": directory.path + "/config", "XDG_DATA_HOME": "/d",
                           "XDG_RUNTIME_DIR": "/r", "LEITNER_SOCKET": "/elsewhere.sock"]
        let german = try Configuration.load(path: nil, locator: ConfigurationLocator(environment: environment, uid: 1, home: "/",
                                                                                     box: "german"))
        #expect(german.source == directory.path + "/config/leitner/german.conf")
        #expect(german.dayStartsAt == 5 * 60)
        #expect(german.storePath == "/d/leitner/boxes/german")
        #expect(german.socketPath == "/r/leitner/german.sock")
        let kana = try Configuration.load(path: nil, locator: ConfigurationLocator(environment: environment, uid: 1, home: "/",
                                                                                   box: "kana"))
        #expect(kana.source == nil)
        #expect(kana.dayStartsAt == 4 * 60)
        #expect(kana.socketPath == "/r/leitner/kana.sock")
        let standard = try Configuration.load(path: nil, locator: ConfigurationLocator(environment: environment, uid: 1, home: "/"))
        #expect(standard.socketPath == "/elsewhere.sock")
        #expect(standard.dayStartsAt == 6 * 60)
    }

    /// A box's own file may still put its store elsewhere, as leitner.conf may.
    @Test func aBoxFileMayMoveItsStore() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("config/leitner/kana.conf", "[Store]\nPath=/srv/kana\n")
        let locator = ConfigurationLocator(environment: ["XDG_CONFIG_HOME": directory.path + "/config"], uid: 1, home: "/",
                                           box: "kana")
        #expect(try Configuration.load(path: nil, locator: locator).storePath == "/srv/kana")
    }
}
