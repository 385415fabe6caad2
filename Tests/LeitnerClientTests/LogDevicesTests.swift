import Testing
import LeitnerClient
import LeitnerCore

/// `leitnerctl log` names each line's device only when the entries shown come from more than one
/// device (docs/sync.md), deciding as the streamed reply arrives.
@Suite struct LogDevicesTests {
    static func entry(_ id: String, _ device: String?) -> LogEntry {
        LogEntry(time: 1_795_289_467_000, event: .add, id: id, to: .one, device: device)
    }

    /// Feeds `entries`, then ends the reply: each entry printed as `id` or `id@device`, in order.
    static func shown(_ entries: [LogEntry], heldAtMost: Int = 10_000) -> [String] {
        var devices = LogDevices(heldAtMost: heldAtMost)
        var lines: [String] = []
        func print(_ released: [LogEntry]) {
            lines += released.map { ($0.id ?? "") + (devices.suffix($0) ?? "") }
        }
        for entry in entries { print(devices.take(entry)) }
        print(devices.finish())
        return lines
    }

    @Test func oneDeviceIsNotShown() {
        #expect(Self.shown([Self.entry("a", "laptop"), Self.entry("b", "laptop")]) == ["a", "b"])
        #expect(Self.shown([Self.entry("a", nil), Self.entry("b", nil)]) == ["a", "b"])
        #expect(Self.shown([]).isEmpty)
    }

    @Test func twoDevicesAreShownOnEveryLine() {
        let entries = [Self.entry("a", "laptop"), Self.entry("b", "laptop"), Self.entry("c", "desktop"),
                       Self.entry("d", "laptop")]
        #expect(Self.shown(entries) == ["a@laptop", "b@laptop", "c@desktop", "d@laptop"])
    }

    @Test func entriesAreHeldOnlyUntilASecondDeviceAppears() {
        var devices = LogDevices()
        #expect(devices.take(Self.entry("a", "laptop")).isEmpty)
        #expect(devices.take(Self.entry("b", "desktop")).map(\.id) == ["a", "b"])
        #expect(devices.showsDevice)
        #expect(devices.take(Self.entry("c", "laptop")).map(\.id) == ["c"])
        #expect(devices.finish().isEmpty)
    }

    /// A long log of one device is not held whole: past the bound its lines go out without the
    /// device, which is shown from the first entry of another device on.
    @Test func aLongLogOfOneDeviceIsNotHeldWhole() {
        var devices = LogDevices(heldAtMost: 3)
        #expect(devices.take(Self.entry("a", "laptop")).isEmpty)
        #expect(devices.take(Self.entry("b", "laptop")).isEmpty)
        #expect(devices.take(Self.entry("c", "laptop")).map(\.id) == ["a", "b", "c"])
        #expect(devices.take(Self.entry("d", "laptop")).map(\.id) == ["d"])
        let entries = ["a", "b", "c", "d"].map { Self.entry($0, "laptop") } + [Self.entry("e", "desktop"), Self.entry("f", "laptop")]
        #expect(Self.shown(entries, heldAtMost: 3) == ["a", "b", "c", "d", "e@desktop", "f@laptop"])
    }
}
