import LeitnerSystem

/// The daily test as the box keeps it between requests: the test of the current position (or
/// the one completed today), the position whose `TestReady=` hook has run, and their files in
/// `.leitner/local.DEVICE/` (`TestFile`). The one place that writes those files and shuffles a
/// queue (R11), so that `Box` asks it rather than reaching into a test it must unwrap.
struct DailyTestState {
    /// The test of the current cycle position, or the one completed today; nil before the first
    /// test of a position opens. Changed in place: a copy would copy its queue.
    private(set) var test: DailyTest?
    /// The position whose `TestReady=` hook has run (once per test).
    private(set) var readyPosition: Int?
    /// The last logical date whose day opened (R23: its admissions were made); kept on disk only
    /// when nothing else says so after a restart (`Box.dayOpened`).
    private(set) var openedDay: LogicalDate?
    /// The cards that joined the open test (R8) since `takeJoined`, noted only when
    /// `notesJoins` (the box has a voice): its speech is made ahead for them (R33,
    /// `Box.speakJoined`), however they came in.
    private var joined: [String] = []
    private let notesJoins: Bool
    private let directory: FileDescriptor
    private let directoryPath: String

    /// The state with no test loaded yet (`load`) and the ready position from its file;
    /// `notesJoins`: whether the cards that join the open test are noted (`takeJoined`).
    init(directory: FileDescriptor, directoryPath: String, notesJoins: Bool) {
        self.directory = directory
        self.directoryPath = directoryPath
        self.notesJoins = notesJoins
        let bytes = try? FileSystem.readFile(TestFile.ready, in: directory, limit: 64)
        readyPosition = bytes.flatMap { Int(String(decoding: $0, as: UTF8.self).split(separator: "\n").first ?? "") }
        let opened = try? FileSystem.readFile(TestFile.dayOpened, in: directory, limit: 64)
        openedDay = opened.flatMap { LogicalDate(String(decoding: $0, as: UTF8.self).split(separator: "\n").first ?? "") }
    }

    /// The path of the test file, for messages.
    var filePath: String { directoryPath + "/" + TestFile.name }

    /// The test file as written when the test opened, its ids numbered by the store's `index`
    /// (`TestFile.decode`); nil when there is none or it is damaged.
    func readFile(numberingBy index: CardIndex) -> DailyTest? {
        guard let bytes = try? FileSystem.readFile(TestFile.name, in: directory) else { return nil }
        return TestFile.decode(bytes, numberingBy: index)
    }

    /// Sets the test as loaded, replayed or rebuilt at open; nil for none.
    mutating func load(_ loaded: DailyTest?) { test = loaded }

    /// Writes `opened` as the test file, then holds it: the file is written before the test is
    /// used, so that a crash never leaves a test the file does not know.
    mutating func save(_ opened: DailyTest) throws(BoxError) {
        try write(opened)
        test = opened
    }

    /// Writes `test` as the test file without holding it (a rebuilt test's file keeps its queue
    /// as it opened; what was replayed over it stays in the log).
    func write(_ test: DailyTest) throws(BoxError) {
        do {
            try FileSystem.writeAtomically(TestFile.encode(test), to: TestFile.name, in: directory)
        } catch {
            throw .failing(.write, filePath, error)
        }
    }

    /// Keeps the damaged test file aside as `test.damaged` for a person to look at.
    func keepDamagedFile() {
        try? FileSystem.rename(TestFile.name, in: directory, to: TestFile.name + ".damaged", in: directory, replacing: true)
    }

    /// Records that the `TestReady=` hook runs for the test at `position`: once per test.
    mutating func markReady(_ position: Int) throws(BoxError) {
        do {
            try FileSystem.writeAtomically(Array("\(position)\n".utf8), to: TestFile.ready, in: directory)
        } catch {
            throw .failing(.write, directoryPath + "/" + TestFile.ready, error)
        }
        readyPosition = position
    }

    /// R23: notes that the day of `date` opened; `durably` writes it to its file first, for a
    /// day that neither a test opened on it nor an admission logged on it would show after a
    /// restart.
    mutating func markDayOpened(_ date: LogicalDate, durably: Bool) throws(BoxError) {
        if durably {
            do {
                try FileSystem.writeAtomically(Array("\(date)\n".utf8), to: TestFile.dayOpened, in: directory)
            } catch {
                throw .failing(.write, directoryPath + "/" + TestFile.dayOpened, error)
            }
        }
        openedDay = date
    }

    // MARK: The test, changed in place

    /// The test at `position`, when it is the one held.
    func test(at position: Int) -> DailyTest? { test?.position == position ? test : nil }

    func contains(_ id: String) -> Bool { test?.contains(id) == true }
    var isDone: Bool { test?.isDone == true }
    var remaining: Int { test?.remaining ?? 0 }

    /// The card at the head of the queue (`DailyTest.head`), nil without a test.
    mutating func head() -> String? { test?.head() }

    /// R8: the card left the test's levels (nil) or came into them. One that joins the open
    /// test is noted; one that joins a completed test is not, as it is in no queue to review
    /// (until an undo opens that test again).
    mutating func levelChanged(_ id: String, to level: Level?) {
        if test?.levelChanged(id, to: level) == true, notesJoins, test?.completed == nil { joined.append(id) }
    }

    mutating func grade(_ grade: DailyTest.Grade) { test?.grade(grade) }

    /// R15: an undo that opens a completed test again notes its queue as joined: the cards that
    /// came into its levels after it was completed are in it.
    mutating func undo() {
        let reopens = test?.completed != nil
        test?.undo()
        if reopens, notesJoins, let test, test.completed == nil { joined += test.members }
    }

    /// The cards noted as joining the open test since the last call, which forgets them.
    mutating func takeJoined() -> [String] {
        defer { joined = [] }
        return joined
    }

    /// Forgets `ids` as joined: their speech is asked for already (a card added singly).
    mutating func forgetJoined(_ ids: [String]) {
        guard !joined.isEmpty else { return }
        let spoken = Set(ids)
        joined.removeAll { spoken.contains($0) }
    }
    mutating func rename(_ id: String, to newID: String) { test?.rename(id, to: newID) }
    mutating func complete(on date: LogicalDate) { test?.completed = date }

    // MARK: Shuffling

    /// R11: the cards of `index` at `levels` (nil: any) that `include` takes and that are not
    /// damaged, in the order of `seed`. Each card sorts by a hash of the seed and its id — a
    /// function of the seed and the set of cards alone, and cheaper than sorting 100,000 strings
    /// and then shuffling. The cards are the index's entry numbers, their ids read as bytes
    /// where they lie: no string per card, no reference counting while sorting
    /// (docs/performance.md, Prepare).
    static func shuffledQueue(of index: CardIndex, damaged: [String: String], seed: UInt64, at levels: [Level]? = nil,
                              including include: (UInt32, Level) -> Bool = { _, _ in true }) -> [UInt32] {
        var items: [UInt64] = []
        items.reserveCapacity(index.count)
        index.forEachEntryWithBytes(at: levels) { entry, level, bytes in
            guard include(entry, level) else { return }
            if !damaged.isEmpty, damaged[index.id(ofEntry: entry)] != nil { return }
            items.append(ShuffleOrder.item(key: SeededGenerator.key(seed: seed, bytes: bytes), entry: entry))
        }
        ShuffleOrder.sort(&items, key: { entry in index.withBytes(ofEntry: entry) { SeededGenerator.key(seed: seed, bytes: $0) } },
                          tieBreak: { index.entry($0, precedes: $1) })
        return items.map(ShuffleOrder.entry)
    }
}
