/// A Leitner box: the store on disk, its schedule and its daily test. The one owner of a store
/// (R19); not thread-safe: the daemon calls it from one actor.
public final class Box {
    /// The canonical path of the store.
    public let storePath: String

    /// Opens (and creates, when missing) the store, takes its lock and repairs what an
    /// interrupted operation left (R18, R19).
    /// - Throws: `StoreLockedError` when another process holds the store; `BoxError.storeFailure`.
    public init(options: BoxOptions) throws {
        fatalError("Box: to be implemented")
    }

    /// Today, today's test and the cards per level (`Status`). Never opens the test.
    public func status() throws(BoxError) -> BoxStatus { fatalError() }

    /// Applies R6, opens today's test (R11) and returns it (`Prepare`). `isNewlyReady` is true the
    /// first time a test with cards is prepared (the `TestReady=` hook runs then).
    public func prepare() throws(BoxError) -> (test: TestSummary, isNewlyReady: Bool) { fatalError() }

    /// The card at the head of the queue, nil when the test has none (`Next`).
    public func next() throws(BoxError) -> (card: Card?, test: TestSummary) { fatalError() }

    /// Grades a card of the queue (R9, R10).
    public func grade(id: String, correct: Bool, answerMs: Int?) throws(BoxError) -> (card: Card, test: TestSummary) { fatalError() }

    /// Reverts the last grade made today (R15).
    public func undo() throws(BoxError) -> (card: Card, test: TestSummary) { fatalError() }

    /// Adds a card (R1, R20). With `allowDuplicateFront` false, a text front that another card
    /// already has is refused with `duplicateFront`.
    public func add(front: Asset, back: Asset, id: String?, level: String?,
                    allowDuplicateFront: Bool = true) throws(BoxError) -> Card { fatalError() }

    /// Moves a card by hand (R12).
    public func move(id: String, level: String) throws(BoxError) -> Card { fatalError() }

    /// Deletes a card.
    public func delete(id: String) throws(BoxError) { fatalError() }

    /// One card, text sides filled.
    public func show(id: String) throws(BoxError) -> Card { fatalError() }

    /// The cards of one level or of all, sorted by level then id; text filled when `withText`.
    public func list(level: String?, withText: Bool) throws(BoxError) -> [Card] { fatalError() }

    /// The bytes of one asset.
    public func readAsset(id: String, side: SideName) throws(BoxError) -> (name: String, data: [UInt8]) { fatalError() }

    /// History and forecast from `from` to `to`, both included.
    public func calendar(from: String, to: String) throws(BoxError) -> [CalendarDay] { fatalError() }

    /// The review log: entries since a time or a logical date, the last `limit` of them.
    public func log(since: String?, limit: Int?) throws(BoxError) -> [LogEntry] { fatalError() }

    /// Every problem in the store: damaged cards, loose halves, duplicates, links (R14, R21, R22).
    public func doctor() throws(BoxError) -> [StoreProblem] { fatalError() }

    /// Makes every change durable and releases the lock.
    public func close() { fatalError() }
}

/// Another process holds the store's lock (R19).
public struct StoreLockedError: Error, CustomStringConvertible, Sendable {
    public var storePath: String
    public var pid: Int32?

    public var description: String {
        if let pid { return "store '\(storePath)' is in use by process \(pid)" }
        return "store '\(storePath)' is in use by another process"
    }
}
