/// A batch of a listing without text (`Box.nextOutlines`), each card as the outline table knows
/// it rather than made a `Card`: its id (where its bytes lie among the index's ids), its level and
/// its sides' file names by number, and its tags. 12 bytes a plain card, where a `Card` and its two
/// paths take about 300; a card the table keeps whole (a reverse or cloze card, R28, R30) is
/// kept as that `Card`.
///
/// The daemon writes each card's JSON from it, off the box's turn, and knows a reply's length
/// before writing its first byte (docs/performance.md, "A listing without text"). `card(at:)`
/// makes the `Card` an outline stands for: the one place a side's path is put together.
public struct CardOutlines: Sendable {
    /// A plain card's id (its offset and length in `ids`), level and sides' names; `whole` in
    /// `front` for a card in `cards`.
    private struct Record {
        var offset: UInt32
        var front: UInt16
        var back: UInt16
        var length: UInt8
        var level: Level
    }

    private static let whole = UInt16.max

    /// The ids' bytes of the index the listing began with: only they, not the index, so that a
    /// batch whose reply is still being sent keeps no copy of the entries the box rewrites at
    /// each grade (`CardIndex.idBytes`).
    private let ids: [UInt8]
    /// Each level's directory and a slash (`/box/2/`), by `Level.rawValue - 1`.
    private let levelDirectories: [String]
    private var records: [Record] = []
    /// The tags of the plain cards that have some, and the cards kept whole, by position.
    private var tagsAt: [Int: [String]] = [:]
    private var cards: [Int: Card] = [:]
    /// The side file names and their media types, by number (the outline table's, which only
    /// grows: set once the batch is taken, so that it holds every name the records number).
    var sideNames: [(name: String, mediaType: String)] = []

    init(index: CardIndex, levelDirectories: [String]) {
        ids = index.idBytes
        self.levelDirectories = levelDirectories
    }

    /// The cards in the batch.
    public var count: Int { records.count }

    /// Adds a plain card, its id the entry `entry` of `index`, the index given at `init`.
    mutating func append(entry: UInt32, of index: CardIndex, level: Level, front: UInt16, back: UInt16, tags: [String]) {
        if !tags.isEmpty { tagsAt[records.count] = tags }
        let id = index.span(ofEntry: entry)
        records.append(Record(offset: UInt32(id.offset), front: front, back: back, length: UInt8(id.length), level: level))
    }

    /// Adds a card kept whole.
    mutating func append(card: Card) {
        cards[records.count] = card
        records.append(Record(offset: 0, front: Self.whole, back: 0, length: 0, level: card.level))
    }

    /// The card at `position` as a listing without text shows it.
    public func card(at position: Int) -> Card {
        if let card = wholeCard(at: position) { return card }
        let record = records[position]
        let id = withID(at: position) { String(decoding: $0, as: UTF8.self) }
        let directory = levelDirectories[record.level.rawValue - 1]
        return Card(id: id, level: record.level, front: side(record.front, of: id, in: directory),
                    back: side(record.back, of: id, in: directory), tags: tags(at: position))
    }

    /// The side numbered `number` of the card `id` in `directory`: its path made as one string of
    /// the right size, not by joining four (a whole level's listing makes 28,000).
    private func side(_ number: UInt16, of id: String, in directory: String) -> Side {
        let (name, mediaType) = sideNames[Int(number)]
        var path = ""
        path.reserveCapacity(directory.utf8.count + id.utf8.count + 1 + name.utf8.count)
        path += directory
        path += id
        path += "/"
        path += name
        return Side(path: path, mediaType: mediaType, text: nil)
    }

    // MARK: The parts of a plain card, for a writer that makes no `Card`

    /// The card at `position` when it is kept whole (a reverse or cloze card); nil for a plain
    /// card, whose parts the functions below give.
    public func wholeCard(at position: Int) -> Card? {
        records[position].front == Self.whole ? cards[position] : nil
    }

    /// Calls `body` with the UTF-8 bytes of the id of the card at `position`.
    public func withID<R>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let record = records[position]
        return ids.withUnsafeBufferPointer { ids in
            body(UnsafeBufferPointer(rebasing: ids[Int(record.offset)..<Int(record.offset) + Int(record.length)]))
        }
    }

    public func level(at position: Int) -> Level { records[position].level }

    /// The numbers of the front's and the back's file names (`sideName`) of a plain card.
    public func sideNumbers(at position: Int) -> (front: Int, back: Int) {
        (Int(records[position].front), Int(records[position].back))
    }

    public func tags(at position: Int) -> [String] { tagsAt.isEmpty ? [] : tagsAt[position] ?? [] }

    /// How many side file names are numbered: each number given is below it.
    public var sideNameCount: Int { sideNames.count }

    /// A side's file name (`front.txt`) and its media type, by number.
    public func sideName(_ number: Int) -> (name: String, mediaType: String) { sideNames[number] }

    /// The directory of `level` and a slash (`/box/2/`): a plain card's side's path is that, its
    /// id, a slash and the side's file name.
    public func directory(of level: Level) -> String { levelDirectories[level.rawValue - 1] }
}
