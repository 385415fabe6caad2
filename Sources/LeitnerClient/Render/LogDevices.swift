import LeitnerCore

/// Whether `log`'s lines name their device, decided as the streamed reply arrives: a box kept on
/// several machines logs per device (docs/sync.md), and a line ends with `@DEVICE` only when the
/// entries shown come from more than one — on one machine, the device would be noise on every
/// line.
///
/// Entries are held until a second device appears (then they are all released, and every line
/// from then on names its device) or the reply ends: `--limit` and logs of up to `heldAtMost`
/// entries are shown exactly so. A longer log of one device is not held whole: past `heldAtMost`
/// entries the held ones are released without their device, and the device is shown from the
/// first entry of another device on.
public struct LogDevices {
    public let heldAtMost: Int
    /// True once entries of two devices have been seen: the lines released from then on name
    /// their device.
    public private(set) var showsDevice = false
    private var held: [LogEntry] = []
    private var holding = true
    private var firstDevice: String?

    public init(heldAtMost: Int = 10_000) {
        self.heldAtMost = max(1, heldAtMost)
    }

    /// Takes the next entry of the reply; returns the entries to print now, in order (none while
    /// they are held).
    public mutating func take(_ entry: LogEntry) -> [LogEntry] {
        if !showsDevice, let device = entry.device {
            if firstDevice == nil { firstDevice = device } else if device != firstDevice { showsDevice = true }
        }
        guard holding else { return [entry] }
        held.append(entry)
        guard showsDevice || held.count >= heldAtMost else { return [] }
        return finish()
    }

    /// The entries still held, at the reply's end (or its failure, so that what came is shown);
    /// from then on nothing is held.
    public mutating func finish() -> [LogEntry] {
        holding = false
        defer { held = [] }
        return held
    }

    /// The end of a line for `entry`: `@DEVICE` when lines name their device, else nothing.
    public func suffix(_ entry: LogEntry) -> String? {
        showsDevice ? entry.device.map { "@" + $0 } : nil
    }
}
