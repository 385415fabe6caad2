import Testing
@testable import LeitnerCore

@Suite struct ConfigurationValueTests {
    func reason(_ body: () throws(ConfigurationValueError) -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func paths() throws {
        #expect(try ConfigurationValue.path("~/cards", home: "/home/a") == "/home/a/cards")
        #expect(try ConfigurationValue.path("~/cards", home: "/") == "/cards")
        #expect(try ConfigurationValue.path("~", home: "/home/a") == "/home/a")
        #expect(try ConfigurationValue.path("/srv/cards", home: "/home/a") == "/srv/cards")
        for bad in ["", "cards", "~a/cards", "./cards"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.path(bad, home: "/h") }
                    == "expected an absolute path or one starting with '~/'", "\(bad)")
        }
    }

    @Test func octalModes() throws {
        #expect(try ConfigurationValue.octalMode("0600") == 0o600)
        #expect(try ConfigurationValue.octalMode("660") == 0o660)
        #expect(try ConfigurationValue.octalMode("7777") == 0o7777)
        for bad in ["", "0800", "06000", "rw", "-600", "0x180"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.octalMode(bad) }
                    == "expected an octal mode such as 0600", "\(bad)")
        }
    }

    @Test func sizes() throws {
        #expect(try ConfigurationValue.size("16M", minimum: 1024) == 16 << 20)
        #expect(try ConfigurationValue.size("64K", minimum: 1024) == 65_536)
        #expect(try ConfigurationValue.size("1G", minimum: 1024) == 1 << 30)
        #expect(try ConfigurationValue.size("2048", minimum: 1024) == 2048)
        let expected = "expected a size in bytes, with an optional K, M or G suffix"
        for bad in ["", "M", "16MB", "1.5M", "-1", "16 M", "16m", "16T"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.size(bad, minimum: 1024) }
                    == expected, "\(bad)")
        }
        #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.size("1023", minimum: 1024) }
                == "must be at least 1024 bytes")
        #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.size("99999999999G", minimum: 1) }
                == "size too large")
        #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.size("99999999999999999999", minimum: 1) }
                == expected)
    }

    @Test func counts() throws {
        #expect(try ConfigurationValue.count("64", minimum: 1) == 64)
        for bad in ["", "0", "-3", "1.5", "ten", "99999999999999999999"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.count(bad, minimum: 1) }
                    == "expected a whole number of at least 1", "\(bad)")
        }
    }

    @Test func timeSpans() throws {
        #expect(try ConfigurationValue.timeSpan("30s") == .seconds(30))
        #expect(try ConfigurationValue.timeSpan("30") == .seconds(30))
        #expect(try ConfigurationValue.timeSpan("2min") == .seconds(120))
        #expect(try ConfigurationValue.timeSpan("1h") == .seconds(3600))
        #expect(try ConfigurationValue.timeSpan("500ms") == .milliseconds(500))
        #expect(try ConfigurationValue.timeSpan("1h 30min") == .seconds(5400))
        #expect(try ConfigurationValue.timeSpan("1h30min") == .seconds(5400))
        #expect(try ConfigurationValue.timeSpan("1.5h") == .seconds(5400))
        #expect(try ConfigurationValue.timeSpan("2 days") == .seconds(172_800))
        #expect(try ConfigurationValue.timeSpan("0") == .zero)
        #expect(try ConfigurationValue.timeSpan(".5s") == .milliseconds(500))
        for bad in ["", "s", "30x", "1h 30", "1 h x", "thirty", "1..5s", "-5s", "5s,"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.timeSpan(bad) }
                    == "expected a time span such as 30s, 2min, 1h or 500ms", "\(bad)")
        }
        #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.timeSpan("999999999999w") }
                == "time span too long")
    }

    @Test func booleans() throws {
        for yes in ["yes", "true", "on", "1", "YES", "True"] { #expect(try ConfigurationValue.boolean(yes)) }
        for no in ["no", "false", "off", "0", "Off"] { #expect(try !ConfigurationValue.boolean(no)) }
        for bad in ["", "y", "2", "enabled"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.boolean(bad) }
                    == "expected yes, no, true, false, on, off, 1 or 0", "\(bad)")
        }
    }

    /// `DayStartsAt=` (docs/configuration.md): HH:MM from 00:00 to 23:59.
    @Test func timesOfDay() throws {
        #expect(try ConfigurationValue.timeOfDay("04:00") == 240)
        #expect(try ConfigurationValue.timeOfDay("00:00") == 0)
        #expect(try ConfigurationValue.timeOfDay("23:59") == 1439)
        #expect(try ConfigurationValue.timeOfDay("4:30") == 270)
        for bad in ["", "24:00", "23:60", "4", "04:0", "04:000", "004:00", "04-00", "04:00:00", "-1:00", "4h"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.timeOfDay(bad) }
                    == "expected HH:MM, from 00:00 to 23:59", "\(bad)")
        }
    }

    @Test func groups() throws {
        #expect(try ConfigurationValue.group("leitner") == .name("leitner"))
        #expect(try ConfigurationValue.group("1001") == .id(1001))
        #expect(try ConfigurationValue.group("_a.b-c") == .name("_a.b-c"))
        for bad in ["-x", "a b", "a:b", String(repeating: "g", count: 33), "99999999999"] {
            #expect(reason { () throws(ConfigurationValueError) in try ConfigurationValue.group(bad) }
                    == "expected a group name or a numeric gid", "\(bad)")
        }
    }

    @Test func groupsResolve() throws {
        #expect(try GroupSelector.id(42).resolve() == 42)
        #expect(try GroupSelector.name("root").resolve() == 0)
        #expect(throws: GroupSelectorError(group: "no-such-group-here", reason: "no such group")) {
            try GroupSelector.name("no-such-group-here").resolve()
        }
    }
}
