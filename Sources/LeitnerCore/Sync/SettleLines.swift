/// What the kept grades (R35) read of every device's log: the lines that can still settle the
/// cards a browser sends grades for (`SettlePlanner.standing`), and how far each log was read.
/// A kept grade then reads only the lines appended since — a grade's worth — where it read every
/// device's whole log, a second for a synced machine's million lines, each time.
struct SettleLines {
    /// The cards whose lines are kept.
    var ids: Set<String>
    /// Each device's log as far as it was read: its end then, and the check of the bytes before
    /// it (`PeerReadMarks.check`), so that a log replaced since by another history is read again.
    var logs: [String: (end: Int, check: UInt32?)] = [:]
    /// Each card's lines that can still settle it, from every device.
    var lines: [String: [DeviceEvent]] = [:]

    init(ids: Set<String>) { self.ids = ids }

    /// Forgets what `device`'s log said: it is gone.
    mutating func forget(_ device: String) {
        logs[device] = nil
        for (id, events) in lines { lines[id] = events.filter { $0.device != device } }
    }

    /// Adds `found`, lines read after those kept, to each card's, keeping only those that stand.
    mutating func add(_ found: [String: [DeviceEvent]]) {
        for (id, events) in found { lines[id] = SettlePlanner.standing(lines[id, default: []] + events, for: id) }
    }
}
