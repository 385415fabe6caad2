/// How to open a box: where its store is and the rules of its schedule.
public struct BoxOptions: Sendable {
    /// The store directory (docs/store-format.md); created with its level directories when missing.
    public var storePath: String
    /// This machine's device id (`DeviceID`, docs/sync.md): the box writes its review log and day
    /// record under `.leitner/devices/DEVICE/` and its private state under `.leitner/local.DEVICE/`.
    public var device: String
    /// How long the store must have been quiet (no card coming, going or moving, no other
    /// device's file changing) before a card a sync left in two levels is settled, in ms.
    public var settleAfter: Int64 = 180_000
    /// The cycle table (R3).
    public var cycle: CycleTable
    /// Where wrong answers go (R9).
    public var onFail: OnFailPolicy
    /// New cards admitted a logical date (R23); nil: no pacing (R1, `NewPerDay=all`): cards
    /// added without a level enter level 1 at once. The daemon sets it from `NewPerDay=`, whose
    /// default is 20; a box opened without it paces nothing, as a box did before R23.
    public var newPerDay: Int? = nil
    /// Wrong answers since a card last entered `1`–`7` from `new/` or `suspended/` that make it
    /// a leech (R24); 0: none is.
    public var leechAfter: Int = 8
    /// R24: the wrong answer that makes a leech also suspends it.
    public var suspendLeeches: Bool = false
    /// The regular-expression engine's steps one search may take (`SearchScan`).
    public var searchSteps: Int = SearchScan.defaultBudget
    /// The most inotify watches the box holds (its level directories' and the views' card
    /// directories'); nil for three quarters of the kernel's `fs.inotify.max_user_watches`,
    /// leaving the rest to the user's other programs, a sync tool's watcher among them. Cards
    /// beyond it are looked at by their files' times instead (docs/performance.md, "Watches").
    public var watchLimit: Int? = nil
    /// When the learning day starts.
    public var dayClock: DayClock
    /// The current time.
    public var clock: any WallClock
    /// Where the seed of each new test's shuffle comes from (R11): the system's random source;
    /// tests give a seeded one, so that a run can be repeated.
    public var seedSource: @Sendable () -> UInt64
    /// The largest asset `ReadAsset` returns: what one reply of the daemon's message size limit
    /// can carry in base64. A larger one is refused before it is read.
    public var maxAssetReply: Int
    /// Group commit (docs/daemon.md): a change's journal record is written but not synced before
    /// the request returns; the caller sends no reply before `Box.commitPoint` is durable, and
    /// concurrent changes share one flush. Off, each change is synced before it returns.
    public var groupCommit: Bool = false
    /// Indexes built off the turn (docs/daemon.md, "Indexes built off the turn"): the first
    /// call that needs the search index or the tag table takes a snapshot and fails, with
    /// `Box.takeAwaitedBuild()` saying which build it waits for; the caller runs or waits for it
    /// without holding the box, then calls again. Off, the first call reads every card itself.
    public var buildsIndexesApart: Bool = false
    /// Settling read apart (docs/sync.md, "Settling a card after a sync"): when the devices' logs
    /// hold this many bytes or more, a settling pass's reading of them is done on a thread of its
    /// own (`SettleRead`), and the request or tick that finds it done settles, reading only the
    /// lines appended since. nil: the call that settles reads the logs itself.
    public var settlesApartFrom: Int?
    /// Looking apart (docs/sync.md, "Settling a card after a sync"): when another device's log
    /// holds this many bytes or more not yet looked through for the cards it names — a new
    /// machine's clone of a synced store, which has no marks of its own (`PeerReadMarks`) — they
    /// are read on a thread of their own (`PeerLook`), and the request or tick that finds it done
    /// notes those cards. nil: the request reads them itself. The daemon sets it to
    /// `settleApartFrom`.
    public var looksApartFrom: Int?
    /// What the daemon sets `settlesApartFrom` to: a MiB of log lines, about 14,000, reads in a
    /// few milliseconds, and is read in the call as before.
    public static let settleApartFrom = 1 << 20
    /// What this device's log says of where it left each card, of the places and of the graded
    /// days is published beside it (`PublishedHistory`, docs/store-format.md) when the log is this
    /// many bytes past the published files: at a stop, and at an open that read the whole log. A
    /// MiB is some 14,000 lines, which a start without local state reads in a few milliseconds.
    public var publishEvery: Int = 1 << 20
    /// The voice (R33): its speech made ahead of time off the turn into `.leitner/cache/voice/`;
    /// nil, or no program: none.
    public var voice: VoiceSettings?

    public init(storePath: String, device: String, cycle: CycleTable = .standard, onFail: OnFailPolicy = .first,
                dayClock: DayClock = DayClock(), clock: any WallClock = SystemClock(),
                maxAssetReply: Int = BoxOptions.assetReplyLimit(messageSize: 16 << 20),
                seedSource: @escaping @Sendable () -> UInt64 = BoxOptions.systemSeed) {
        self.storePath = storePath
        self.device = device
        self.cycle = cycle
        self.onFail = onFail
        self.dayClock = dayClock
        self.clock = clock
        self.maxAssetReply = maxAssetReply
        self.seedSource = seedSource
    }

    /// A seed from the system's random source.
    @Sendable public static func systemSeed() -> UInt64 {
        var random = SystemRandomNumberGenerator()
        return random.next()
    }

    /// The largest asset whose base64 fits in a message of `messageSize` bytes, with room for
    /// the reply around it.
    public static func assetReplyLimit(messageSize: Int) -> Int {
        max(0, (messageSize - 4096) / 4 * 3)
    }
}
