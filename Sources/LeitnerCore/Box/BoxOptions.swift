/// How to open a box: where its store is and the rules of its schedule.
public struct BoxOptions: Sendable {
    /// The store directory (SPEC §3); created with its level directories when missing.
    public var storePath: String
    /// The cycle table (R3).
    public var cycle: CycleTable
    /// Where wrong answers go (R9).
    public var onFail: OnFailPolicy
    /// When the learning day starts.
    public var dayClock: DayClock
    /// The current time.
    public var clock: any WallClock

    public init(storePath: String, cycle: CycleTable = .standard, onFail: OnFailPolicy = .first,
                dayClock: DayClock = DayClock(), clock: any WallClock = SystemClock()) {
        self.storePath = storePath
        self.cycle = cycle
        self.onFail = onFail
        self.dayClock = dayClock
        self.clock = clock
    }
}
