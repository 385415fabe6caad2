import Testing
@testable import LeitnerCore
@testable import LeitnerSystem

@Suite struct ConfigurationParserTests {
    static let file = "/etc/leitner/leitner.conf"
    static let locator = ConfigurationLocator(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000,
                                              home: "/home/a")

    func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration(defaultsFor: Self.locator)
        try ConfigurationParser(path: Self.file, home: "/home/a").parse(text, into: &configuration)
        return configuration
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func everyKey() throws {
        let c = try parse("""
            # comment
            ; another comment

            [Store]
            Path = ~/cards
            [Daemon]
            Socket=/run/leitner/leitnerd.sock
            SocketMode=0660
            AllowGroup=students
            MaxMessageSize=1M
            MaxConnections=8
            IdleTimeout=2min
            ExitIdleAfter=10min
            [Schedule]
            DayStartsAt=03:30
            OnFail=previous
            Cycle=1 2,1 3,2,1
            [Hooks]
            TestReady=notify-send "cards due: $LEITNER_DUE"
            [Client]
            Autostart=no
            Viewer=feh -.
            Player=mpv --no-video
            Images=sixel
            """)
        #expect(c.storePath == "/home/a/cards")
        #expect(c.socketPath == "/run/leitner/leitnerd.sock")
        #expect(c.socketMode == 0o660)
        #expect(c.allowGroup == .name("students"))
        #expect(c.maxMessageSize == 1 << 20)
        #expect(c.maxConnections == 8)
        #expect(c.idleTimeout == .seconds(120))
        #expect(c.exitIdleAfter == .seconds(600))
        #expect(c.dayStartsAt == 210)
        #expect(c.onFail == .previous)
        #expect(c.cycle.inlineForm == "1 2,1 3,2,1")
        #expect(c.testReady == "notify-send \"cards due: $LEITNER_DUE\"")
        #expect(c.autostart == false)
        #expect(c.viewer == "feh -.")
        #expect(c.player == "mpv --no-video")
        #expect(c.images == "sixel")
    }

    @Test func imagesTakesAutoOrAProtocol() throws {
        #expect(try parse("").images == "auto")
        for name in ["auto"] + Configuration.imageProtocols {
            #expect(try parse("[Client]\nImages=\(name)\n").images == name)
        }
        #expect(error("[Client]\nImages=ascii\n")
                == "\(Self.file):2: invalid value 'ascii' for Images=: expected auto, kitty, iterm, sixel, blocks, none")
    }

    @Test func ignoreAccentsIsABooleanDefaultNo() throws {
        #expect(try parse("").ignoreAccents == false)
        #expect(try parse("[Review]\nIgnoreAccents=yes\n").ignoreAccents == true)
        #expect(try parse("[Review]\nIgnoreAccents = no\n").ignoreAccents == false)
        #expect(error("[Review]\nIgnoreAccents=maybe\n")?.hasPrefix("\(Self.file):2: invalid value 'maybe' for IgnoreAccents=") == true)
        #expect(error("[Client]\nIgnoreAccents=yes\n")
                == "\(Self.file):2: unknown key 'IgnoreAccents' in section [Client]: IgnoreAccents= belongs in section [Review]")
    }

    @Test func lastValueWinsAndSectionsRepeat() throws {
        let c = try parse("[Schedule]\nDayStartsAt=05:00\n[Client]\nAutostart=no\n[Schedule]\nDayStartsAt=06:15\n")
        #expect(c.dayStartsAt == 6 * 60 + 15)
        #expect(c.autostart == false)
    }

    @Test func emptyValuesMeanNone() throws {
        let c = try parse("[Daemon]\nAllowGroup=g\nAllowGroup=\nExitIdleAfter=\n[Client]\nViewer=\nPlayer=\n[Hooks]\nTestReady=\n")
        #expect(c.allowGroup == nil)
        // Empty is the default (10 min for a daemon leitnerctl starts, else never); 0 is never.
        #expect(c.exitIdleAfter == nil)
        #expect(c.viewer == nil)
        #expect(c.player == nil)
        #expect(c.testReady == nil)
        #expect(try parse("[Daemon]\nExitIdleAfter=0").exitIdleAfter == .zero)
    }

    @Test func crlfLinesAndNoFinalNewline() throws {
        #expect(try parse("[Schedule]\r\nDayStartsAt=05:00\r\n").dayStartsAt == 300)
        #expect(try parse("[Schedule]\nOnFail=previous").onFail == .previous)
    }

    @Test func syncNamesTheDeviceAndTheQuietBeforeSettling() throws {
        let configuration = try parse("[Sync]\nDevice=laptop\nSettleAfter=2min\n")
        #expect(configuration.device == "laptop" && configuration.settleAfter == .seconds(120))
        #expect(try parse("[Sync]\nDevice=\n").device == nil, "empty: the id kept in XDG_STATE_HOME")
        #expect(try parse("").settleAfter == .seconds(180))
    }

    @Test func malformedLines() {
        let f = Self.file
        #expect(error("[Daemon]\nFoo=1\n") == "\(f):2: unknown key 'Foo' in section [Daemon]")
        #expect(error("\n[Foo]\n") == "\(f):2: unknown section [Foo]")
        #expect(error("[Daemon\n") == "\(f):1: malformed section header '[Daemon'")
        #expect(error("[]\n") == "\(f):1: malformed section header '[]'")
        #expect(error("Path=/x\n") == "\(f):1: key 'Path' outside of any section")
        #expect(error("[Store]\nPath\n") == "\(f):2: expected '[Section]', 'Key=Value' or a comment, got 'Path'")
        #expect(error("[Store]\n=/x\n") == "\(f):2: expected '[Section]', 'Key=Value' or a comment, got '=/x'")
        #expect(error("[Store]\npath=/x\n") == "\(f):2: unknown key 'path' in section [Store], did you mean 'Path'?")
        #expect(error("[store]\n") == "\(f):1: unknown section [store], did you mean [Store]?")
        #expect(error("[Frobs]\n") == "\(f):1: unknown section [Frobs]")
        #expect(error("[Daemon]\nPath=/x\n") == "\(f):2: unknown key 'Path' in section [Daemon]: Path= belongs in section [Store]")
        #expect(error("[Schedule]\nFrobnicate=1\n") == "\(f):2: unknown key 'Frobnicate' in section [Schedule]")
    }

    /// A mistyped key gets the nearest key of its section: a letter missing, one too many, two
    /// swapped, or the wrong case.
    @Test(arguments: [
        ("[Schedule]\nDayStartAt=05:00", "unknown key 'DayStartAt' in section [Schedule], did you mean 'DayStartsAt'?"),
        ("[Schedule]\nDaystartsat=05:00", "unknown key 'Daystartsat' in section [Schedule], did you mean 'DayStartsAt'?"),
        ("[Daemon]\nExitIdelAfter=1min", "unknown key 'ExitIdelAfter' in section [Daemon], did you mean 'ExitIdleAfter'?"),
        ("[Schedule]\nOnFial=first", "unknown key 'OnFial' in section [Schedule], did you mean 'OnFail'?"),
        ("[Daemon]\nSockets=/x", "unknown key 'Sockets' in section [Daemon], did you mean 'Socket'?"),
    ])
    func mistypedKeys(text: String, message: String) {
        #expect(error(text) == "\(Self.file):2: \(message)")
    }

    /// Each bad value names the file, the line, the value, the key and what was expected.
    @Test(arguments: [
        ("[Store]\nPath=cards", "invalid value 'cards' for Path=: expected an absolute path or one starting with '~/'"),
        ("[Store]\nPath=", "invalid value '' for Path=: expected an absolute path or one starting with '~/'"),
        ("[Daemon]\nSocket=sock", "invalid value 'sock' for Socket=: expected an absolute path or one starting with '~/'"),
        ("[Daemon]\nSocketMode=0999", "invalid value '0999' for SocketMode=: expected an octal mode such as 0600"),
        ("[Daemon]\nAllowGroup=a b", "invalid value 'a b' for AllowGroup=: expected a group name or a numeric gid"),
        ("[Daemon]\nMaxMessageSize=16MB",
         "invalid value '16MB' for MaxMessageSize=: expected a size in bytes, with an optional K, M or G suffix"),
        ("[Daemon]\nMaxMessageSize=100", "invalid value '100' for MaxMessageSize=: must be at least 1024 bytes"),
        ("[Daemon]\nMaxConnections=0", "invalid value '0' for MaxConnections=: expected a whole number of at least 1"),
        ("[Daemon]\nIdleTimeout=soon",
         "invalid value 'soon' for IdleTimeout=: expected a time span such as 30s, 2min, 1h or 500ms"),
        ("[Daemon]\nIdleTimeout=0", "invalid value '0' for IdleTimeout=: must be longer than 0"),
        ("[Daemon]\nExitIdleAfter=5 parsecs",
         "invalid value '5 parsecs' for ExitIdleAfter=: expected a time span such as 30s, 2min, 1h or 500ms"),
        ("[Schedule]\nDayStartsAt=24:00", "invalid value '24:00' for DayStartsAt=: expected HH:MM, from 00:00 to 23:59"),
        ("[Schedule]\nDayStartsAt=4am", "invalid value '4am' for DayStartsAt=: expected HH:MM, from 00:00 to 23:59"),
        ("[Schedule]\nDayStartsAt=", "invalid value '' for DayStartsAt=: expected HH:MM, from 00:00 to 23:59"),
        ("[Schedule]\nOnFail=last", "invalid value 'last' for OnFail=: expected 'first' or 'previous'"),
        ("[Sync]\nDevice=my laptop",
         "invalid value 'my laptop' for Device=: a device id is made of the letters a-z and A-Z, the digits, '_' and '-'"),
        ("[Sync]\nDevice=-x", "invalid value '-x' for Device=: a device id does not start with '-'"),
        ("[Sync]\nSettleAfter=0", "invalid value '0' for SettleAfter=: must be longer than 0"),
        ("[Client]\nAutostart=maybe", "invalid value 'maybe' for Autostart=: expected yes, no, true, false, on, off, 1 or 0"),
    ])
    func badValues(text: String, message: String) {
        #expect(error(text) == "\(Self.file):2: \(message)")
    }

    /// R3: a table given in the configuration is rejected, with the reason, if an entry is empty
    /// or names a level outside 1–7.
    @Test(arguments: [
        ("2,1 ,1", "invalid value '2,1 ,1' for Cycle=: cycle entry 2 is empty"),
        ("2,1 3,,1", "invalid value '2,1 3,,1' for Cycle=: cycle entry 2 is empty"),
        ("2,1 1,", "invalid value '2,1 1,' for Cycle=: cycle entry 2 is empty"),
        ("0,1", "invalid value '0,1' for Cycle=: cycle entry 1 names level '0', not one of 1 to 7"),
        ("1 8", "invalid value '1 8' for Cycle=: cycle entry 2 names level '8', not one of 1 to 7"),
        ("1 finished,1", "invalid value '1 finished,1' for Cycle=: cycle entry 2 names level 'finished', not one of 1 to 7"),
        ("", "invalid value '' for Cycle=: the cycle has no entry"),
    ])
    func r3BadCycles(value: String, message: String) {
        #expect(error("[Schedule]\n# R3\nCycle=\(value)\n") == "\(Self.file):3: \(message)")
    }

    @Test func untouchedKeysKeepTheirValues() throws {
        let c = try parse("[Schedule]\nOnFail=previous\n")
        var expected = Configuration(defaultsFor: Self.locator)
        expected.onFail = .previous
        #expect(c == expected)
    }
}
