import LeitnerCore
import LeitnerVarlink

/// Writes the cards of a batch of a listing without text (`CardOutlines`) as `Card.serialize`
/// writes the cards they stand for — the same bytes (`CardOutlinesJSONTests`) — with no `Card`
/// made: a plain card is a few runs escaped once for the whole batch (each level's directory,
/// each side's file name and media type) around its id. It also gives a card's length without
/// writing it, so that a reply's length is known before its first byte is sent
/// (`VarlinkReplyParts.announce`; docs/performance.md, "A listing without text").
public final class CardOutlinesJSON: Sendable {
    public let outlines: CardOutlines
    /// By `Level.rawValue - 1`: the level's directory escaped (`/box/2/`), and its name as a
    /// JSON string.
    private let directories: [[UInt8]]
    private let levelNames: [[UInt8]]
    /// By number: a side's file name escaped after a slash (`/front.txt`), and its media type
    /// as a JSON string.
    private let names: [[UInt8]]
    private let mediaTypes: [[UInt8]]

    // What `Card.serialize` writes around a plain card's parts without text: its members in
    // the order of their keys, `back` and `front` each `mediaType`, `path` and a null `text`.
    private static let backHead = Array(#"{"back":{"mediaType":"#.utf8)
    private static let pathHead = Array(#","path":""#.utf8)
    private static let frontHead = Array(#"","text":null},"front":{"mediaType":"#.utf8)
    private static let idHead = Array(#"","text":null},"id":""#.utf8)
    private static let levelHead = Array(#"","level":"#.utf8)
    private static let tagsHead = Array(#","tags":["#.utf8)
    /// The runs above (the path's twice) and the closing brace.
    private static let fixedSize = backHead.count + 2 * pathHead.count + frontHead.count + idHead.count
        + levelHead.count + 1

    public init(_ outlines: CardOutlines) {
        self.outlines = outlines
        directories = Level.allCases.map { JSONString.escaped(outlines.directory(of: $0)) }
        levelNames = Level.allCases.map { JSONValue.string($0.name).serialized }
        let sideNames = (0..<outlines.sideNameCount).map(outlines.sideName)
        names = sideNames.map { JSONString.escaped("/" + $0.name) }
        mediaTypes = sideNames.map { JSONValue.string($0.mediaType).serialized }
    }

    /// Appends the JSON of the card at `position`: `outlines.card(at: position).serialize`.
    public func write(_ position: Int, into buffer: inout [UInt8]) {
        if let card = outlines.wholeCard(at: position) {
            card.serialize(into: &buffer)
            return
        }
        let level = outlines.level(at: position).rawValue - 1
        let (front, back) = outlines.sideNumbers(at: position)
        outlines.withID(at: position) { id in
            appendSide(Self.backHead, back, level: level, id: id, to: &buffer)
            appendSide(Self.frontHead, front, level: level, id: id, to: &buffer)
            buffer.append(contentsOf: Self.idHead)
            JSONString.appendEscaped(id, to: &buffer)
            buffer.append(contentsOf: Self.levelHead)
            buffer.append(contentsOf: levelNames[level])
        }
        let tags = outlines.tags(at: position)
        if !tags.isEmpty {
            buffer.append(contentsOf: Self.tagsHead)
            for (index, tag) in tags.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONValue.string(tag).serialize(into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// A side's member after `head`: its media type, then its path, which is the level's
    /// directory, the id and the side's name.
    private func appendSide(_ head: [UInt8], _ side: Int, level: Int, id: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: head)
        buffer.append(contentsOf: mediaTypes[side])
        buffer.append(contentsOf: Self.pathHead)
        buffer.append(contentsOf: directories[level])
        JSONString.appendEscaped(id, to: &buffer)
        buffer.append(contentsOf: names[side])
    }

    /// How many bytes `write` appends for the card at `position`, counted without writing them
    /// (but for a card kept whole: a reverse or cloze card, written aside and counted).
    public func size(of position: Int) -> Int {
        if let card = outlines.wholeCard(at: position) {
            var written: [UInt8] = []
            card.serialize(into: &written)
            return written.count
        }
        let level = outlines.level(at: position).rawValue - 1
        let (front, back) = outlines.sideNumbers(at: position)
        let id = outlines.withID(at: position) { JSONString.escapedCount($0) }
        var size = Self.fixedSize + 3 * id + 2 * directories[level].count + levelNames[level].count
            + names[front].count + names[back].count + mediaTypes[front].count + mediaTypes[back].count
        let tags = outlines.tags(at: position)
        if !tags.isEmpty {
            // The head, the closing bracket, a comma between two, each tag quoted.
            size += Self.tagsHead.count + 1 + tags.count - 1
            for tag in tags { size += 2 + JSONString.escapedCount(tag) }
        }
        return size
    }
}
