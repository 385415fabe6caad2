import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

@Suite struct ConfigurationTests {
    /// The package's root, from this file's path.
    static let packageRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static let shipped = packageRoot + "/config/leitner.conf"

    @Test func defaultsWithoutAnyFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let c = try Configuration.load(path: nil, locator: ConfigurationLocator(
            environment: ["XDG_CONFIG_HOME": directory.path], uid: 1000, home: "/home/a"))
        #expect(c.source == nil)
        #expect(c.storePath == "/home/a/.local/share/leitner")
        #expect(c.socketPath == "/tmp/leitner-1000/leitnerd.sock")
        #expect(c.privateSocketDirectory == "/tmp/leitner-1000")
        #expect(c.socketMode == 0o600)
        #expect(c.allowGroup == nil)
        #expect(c.maxMessageSize == 16 << 20)
        #expect(c.maxConnections == 64)
        #expect(c.idleTimeout == .seconds(30))
        #expect(c.exitIdleAfter == nil)
        #expect(c.dayStartsAt == 240)
        #expect(c.dayClock.dayStartsAt == 240)
        #expect(c.onFail == .first)
        #expect(c.cycle == .standard)
        #expect(c.testReady == nil)
        #expect(c.autostart)
        #expect(c.player == nil)
    }

    @Test func userFileIsReadWhenPresent() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.write("leitner/leitner.conf", "[Schedule]\nDayStartsAt=05:00\n", mode: 0o644)
        let c = try Configuration.load(path: nil, locator: ConfigurationLocator(
            environment: ["XDG_CONFIG_HOME": directory.path], uid: 1, home: "/"))
        #expect(c.source == file)
        #expect(c.dayStartsAt == 300)
    }

    @Test func explicitFileMustExist() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: ConfigurationError.cannotRead(path: directory.path + "/none.conf", reason: "No such file or directory")) {
            try Configuration.load(path: directory.path + "/none.conf", environment: [:])
        }
        #expect(ConfigurationError.cannotRead(path: "/x", reason: "Permission denied").description
                == "cannot read '/x': Permission denied")
        #expect(throws: ConfigurationError.cannotRead(path: directory.path, reason: "Is a directory")) {
            try Configuration.load(path: directory.path, environment: [:])
        }
    }

    @Test func errorsNameTheFileRead() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.write("bad.conf", "[Daemon]\n\nFoo=1\n", mode: 0o644)
        #expect(throws: ConfigurationError.invalidLine(path: file, line: 3, message: "unknown key 'Foo' in section [Daemon]")) {
            try Configuration.load(path: file, environment: [:])
        }
    }

    /// docs/configuration.md precedence: --socket, then LEITNER_SOCKET, then Socket=, then the default;
    /// --store, then Path=, then the default.
    @Test func precedence() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.write("l.conf", "[Daemon]\nSocket=/from/file.sock\n[Store]\nPath=~/file-store\n", mode: 0o644)
        let fromFile = try Configuration.load(path: file, locator: ConfigurationLocator(environment: [:], uid: 1, home: "/h"))
        #expect(fromFile.resolvedSocketPath(override: nil) == "/from/file.sock")
        #expect(fromFile.resolvedStorePath(override: nil) == "/h/file-store")
        #expect(fromFile.resolvedStorePath(override: "/cli/store") == "/cli/store")
        let withEnvironment = try Configuration.load(path: file, locator: ConfigurationLocator(
            environment: ["LEITNER_SOCKET": "/from/env.sock"], uid: 1, home: "/h"))
        #expect(withEnvironment.resolvedSocketPath(override: nil) == "/from/env.sock")
        #expect(withEnvironment.resolvedSocketPath(override: "/cli.sock") == "/cli.sock")
        let noFile = try Configuration.load(path: nil, locator: ConfigurationLocator(
            environment: ["LEITNER_SOCKET": "/from/env.sock", "XDG_CONFIG_HOME": directory.path + "/none"], uid: 1, home: "/h"))
        #expect(noFile.socketPath == "/from/env.sock")
    }

    /// The shipped file has every key commented out, so it yields the embedded defaults.
    @Test func shippedFileYieldsTheDefaults() throws {
        let locator = ConfigurationLocator(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000, home: "/home/a")
        var loaded = try Configuration.load(path: Self.shipped, locator: locator)
        #expect(loaded.source == Self.shipped)
        loaded.source = nil
        #expect(loaded == Configuration(defaultsFor: locator))
    }

    /// The defaults of `Viewer=` and `Player=` are looked for when read, not when the
    /// configuration is made: `leitnerctl status` never plays a sound, and the search was 70
    /// `access` calls of its start. A program installed after the configuration was read is found.
    @Test func programDefaultsAreLookedForWhenRead() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let locator = ConfigurationLocator(environment: ["PATH": directory.path + "/bin"], uid: 1000, home: "/home/a")
        var configuration = Configuration(defaultsFor: locator)
        directory.write("bin/aplay", "#!/bin/sh\n", mode: 0o755)
        directory.write("bin/xdg-open", "#!/bin/sh\n", mode: 0o755)
        #expect(configuration.player == "aplay")
        #expect(configuration.viewer == "xdg-open")
        // A value set (even empty: none) is kept whatever PATH holds.
        configuration.player = nil
        configuration.viewer = "feh"
        #expect(configuration.player == nil)
        #expect(configuration.viewer == "feh")
    }

    /// `Player=` unset: the first audio player on PATH, in the documented order; none found, none.
    @Test func playerDefaultsToTheFirstOnPath() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        func player(_ programs: [String]) -> String? {
            let bin = "bin-" + programs.joined(separator: "-")
            for program in programs { directory.write("\(bin)/\(program)", "#!/bin/sh\n", mode: 0o755) }
            let locator = ConfigurationLocator(environment: ["PATH": directory.path + "/" + bin], uid: 1000, home: "/home/a")
            return Configuration(defaultsFor: locator).player
        }
        #expect(player(["mpv", "aplay", "paplay"]) == "paplay")
        #expect(player(["mpv", "ffplay"]) == "ffplay -nodisp -autoexit -loglevel quiet")
        #expect(player(["mpv"]) == "mpv --no-video --really-quiet")
        #expect(player(["xdg-open"]) == nil)
    }

    /// With every key un-commented the shipped file still parses, and gives the defaults it
    /// documents (Viewer=xdg-open when xdg-open is on PATH).
    @Test func shippedFileUncommentedParses() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("bin/xdg-open", "#!/bin/sh\n", mode: 0o755)
        let text = String(decoding: try FileSystem.readFile(atPath: Self.shipped), as: UTF8.self)
        var keys = 0
        let uncommented = text.lines.map { line -> String in
            guard line.hasPrefix("#"), line.dropFirst().first?.isUppercase == true, line.contains("=") else {
                return String(line)
            }
            keys += 1
            return String(line.dropFirst())
        }.joined(separator: "\n")
        #expect(keys == ConfigurationParser.keys.values.map(\.count).reduce(0, +))
        let file = directory.write("all.conf", uncommented, mode: 0o644)
        let locator = ConfigurationLocator(environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "PATH": directory.path + "/bin"],
                                           uid: 1000, home: "/home/a")
        var loaded = try Configuration.load(path: file, locator: locator)
        loaded.source = nil
        #expect(loaded == Configuration(defaultsFor: locator))
    }
}
