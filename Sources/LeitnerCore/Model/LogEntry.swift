/// An event of the review log (R16, `io.leitner.Box` type `LogEntry`).
public struct LogEntry: Sendable, Equatable {
    public enum Event: String, Sendable, CaseIterable {
        case add, grade, undo, move, delete, skip, complete, edit, rename
        /// An answer outside the test (R27): FROM and TO both the card's level, which it keeps.
        case practice
    }
    /// Milliseconds since the Unix epoch.
    public var time: Int64
    public var event: Event
    public var id: String?
    public var from: Level?
    public var to: Level?
    public var correct: Bool?
    public var answerMs: Int?
    /// For `skip` and `complete`: the logical date recorded in the day record.
    public var date: LogicalDate?
    /// How the change came about: nil for a client's request, else `LogOrigin`.
    public var origin: LogOrigin?
    /// For `rename`: the card's new id (`id` is the old one).
    public var renamedTo: String?
    /// For a change found in the store (`origin=hand`): when it was made, by its folder's change
    /// time, where that is earlier than `time` — the line is written when the change is noticed,
    /// and never earlier than the log's last line, so that the log stays in time order. Settling
    /// ranks the change by this time (docs/sync.md, "A hand move's time"). In the log line only.
    public var made: Int64?
    /// The device whose review log holds the event (docs/sync.md), nil for a log of no device.
    /// Not written in the log line: each device writes only its own log, so the device is the
    /// file's, set by whoever reads that file (`MergedLogReader`).
    public var device: String?
    /// For a grade a browser kept offline (R35): the browser's device and the grade's sequence
    /// number on it, `kept=DEVICE:SEQ` in the line, on the browser's `grade` line and on this
    /// device's `move origin=kept` line alike, so that a grade sent twice is taken once.
    public var kept: KeptMark?

    public init(time: Int64, event: Event, id: String? = nil, from: Level? = nil, to: Level? = nil,
                correct: Bool? = nil, answerMs: Int? = nil, date: LogicalDate? = nil, origin: LogOrigin? = nil, renamedTo: String? = nil,
                device: String? = nil, made: Int64? = nil) {
        self.time = time
        self.event = event
        self.id = id
        self.from = from
        self.to = to
        self.correct = correct
        self.answerMs = answerMs
        self.date = date
        self.origin = origin
        self.renamedTo = renamedTo
        self.device = device
        self.made = made
    }
}
