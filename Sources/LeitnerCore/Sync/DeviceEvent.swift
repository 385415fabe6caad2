/// One line of one device's review log (`.leitner/devices/DEVICE/log`, docs/sync.md), as the
/// settling of a card in two levels reads it (`SettlePlanner`).
struct DeviceEvent: Sendable, Equatable {
    /// The device whose log holds the line: the name of its directory under `.leitner/devices/`.
    var device: String
    /// The byte offset of the line in that device's log. `(device, offset)` names the event: a
    /// device only appends to its own log, so a later offset is a later event on that device,
    /// whatever its clock said.
    var offset: Int
    var entry: LogEntry

    init(device: String, offset: Int, entry: LogEntry) {
        self.device = device
        self.offset = offset
        self.entry = entry
    }
}
