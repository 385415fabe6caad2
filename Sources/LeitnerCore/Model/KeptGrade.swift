/// Which grade a browser kept offline a log line stands for (R35): the browser's device id and
/// the grade's sequence number there, `kept=DEVICE:SEQ` in the line.
public struct KeptMark: Sendable, Equatable {
    public var device: String
    public var sequence: Int

    public init(device: String, sequence: Int) {
        self.device = device
        self.sequence = sequence
    }

    /// Reads `DEVICE:SEQ`; nil when it is not that (a line written by hand names no grade).
    init?(_ bytes: ArraySlice<UInt8>) {
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")),
              let sequence = Int(String(decoding: bytes[(colon + 1)...], as: UTF8.self)), sequence >= 0
        else { return nil }
        let device = String(decoding: bytes[..<colon], as: UTF8.self)
        guard DeviceID.problem(device) == nil else { return nil }
        self.init(device: device, sequence: sequence)
    }
}

/// A grade a browser gave while it could not reach the box, and sent when it could
/// (R35, the method `TakeKeptGrade`).
public struct KeptGrade: Sendable, Equatable {
    /// The browser's device id: its log is `.leitner/devices/DEVICE/log`.
    public var device: String
    /// The grade's number on that device, greater than every one it sent before: a grade whose
    /// number was taken already is taken once.
    public var sequence: Int
    public var id: String
    public var correct: Bool
    /// When the grade was given, ms since the epoch.
    public var time: Int64
    public var answerMs: Int?
    /// The level the browser saw the card in when it graded it (its level when the page kept it,
    /// or where the browser's earlier grade of it in the same test put it).
    public var from: Level
    /// The cycle position of the test the page kept; nil when the page did not say.
    public var position: Int?

    public init(device: String, sequence: Int, id: String, correct: Bool, time: Int64, answerMs: Int?,
                from: Level, position: Int?) {
        self.device = device
        self.sequence = sequence
        self.id = id
        self.correct = correct
        self.time = time
        self.answerMs = answerMs
        self.from = from
        self.position = position
    }
}

/// What the box did with a kept grade (`Box.takeKeptGrade`).
public struct KeptGradeReceipt: Sendable, Equatable {
    /// False when the grade had been taken before (a reply lost on the way): nothing changed.
    public var taken: Bool
    /// Where the card is now; nil when it no longer exists (deleted or renamed meanwhile): the
    /// grade is in the browser's log all the same.
    public var level: Level?
    public var test: TestSummary
}

/// What a browser keeps to review the day's test offline (R35, `Box.keepTest`).
public struct KeptTest: Sendable {
    public var test: TestSummary
    /// The cards still to ask, in the queue's order, with their text; at most `Box.keptCardLimit`.
    public var cards: [Card]
    /// Where a wrong answer sends a card (R9), for the browser's own moves.
    public var onFail: OnFailPolicy
    /// When the test's learning day ends (ms since the epoch): after it, what the browser kept
    /// belongs to an old test, and it says so.
    public var dayEnds: Int64
    /// The greatest sequence number of the browser's grades the box took: its next grade is
    /// numbered above it, even when the browser lost its own count.
    public var sequence: Int
}
