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
    /// Every run a plain card is written from, back to back, copied from here by their spans
    /// below: one buffer, so that writing a card copies bytes and counts no references (a
    /// profile of arrays of runs: a third of the time in retains and releases).
    private let runs: [UInt8]
    /// What `Card.serialize` writes around a plain card's parts without text: its members in the
    /// order of their keys, `back` and `front` each `mediaType`, `path` and a null `text`.
    private let backHead, pathHead, frontHead, idHead, levelHead, tagsHead: Range<Int>
    /// By `Level.rawValue - 1`: the level's directory escaped (`/box/2/`), and its name as a
    /// JSON string.
    private let directories: [Range<Int>]
    private let levelNames: [Range<Int>]
    /// By number: a side's file name escaped after a slash (`/front.txt`), and its media type
    /// as a JSON string.
    private let names: [Range<Int>]
    private let mediaTypes: [Range<Int>]

    public init(_ outlines: CardOutlines) {
        self.outlines = outlines
        var runs: [UInt8] = []
        func run(_ bytes: [UInt8]) -> Range<Int> {
            runs += bytes
            return runs.count - bytes.count..<runs.count
        }
        backHead = run(Array(#"{"back":{"mediaType":"#.utf8))
        pathHead = run(Array(#","path":""#.utf8))
        frontHead = run(Array(#"","text":null},"front":{"mediaType":"#.utf8))
        idHead = run(Array(#"","text":null},"id":""#.utf8))
        levelHead = run(Array(#"","level":"#.utf8))
        tagsHead = run(Array(#","tags":["#.utf8))
        directories = Level.allCases.map { run(JSONString.escaped(outlines.directory(of: $0))) }
        levelNames = Level.allCases.map { run(JSONValue.string($0.name).serialized) }
        let sideNames = (0..<outlines.sideNameCount).map(outlines.sideName)
        names = sideNames.map { run(JSONString.escaped("/" + $0.name)) }
        mediaTypes = sideNames.map { run(JSONValue.string($0.mediaType).serialized) }
        self.runs = runs
    }

    /// Appends the JSON of the card at `position`: `outlines.card(at: position).serialize`.
    public func write(_ position: Int, into buffer: inout [UInt8]) {
        if let card = outlines.wholeCard(at: position) {
            card.serialize(into: &buffer)
            return
        }
        let level = outlines.level(at: position).rawValue - 1
        let (front, back) = outlines.sideNumbers(at: position)
        runs.withUnsafeBufferPointer { runs in
            func put(_ span: Range<Int>) {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: runs[span]))
            }
            outlines.withID(at: position) { id in
                // A side after its head: its media type, then its path, which is the level's
                // directory, the id and the side's name.
                func side(_ head: Range<Int>, _ number: Int) {
                    put(head)
                    put(mediaTypes[number])
                    put(pathHead)
                    put(directories[level])
                    JSONString.appendEscaped(id, to: &buffer)
                    put(names[number])
                }
                side(backHead, back)
                side(frontHead, front)
                put(idHead)
                JSONString.appendEscaped(id, to: &buffer)
                put(levelHead)
                put(levelNames[level])
            }
            let tags = outlines.tags(at: position)
            if !tags.isEmpty {
                put(tagsHead)
                for (index, tag) in tags.enumerated() {
                    if index > 0 { buffer.append(UInt8(ascii: ",")) }
                    JSONValue.string(tag).serialize(into: &buffer)
                }
                buffer.append(UInt8(ascii: "]"))
            }
        }
        buffer.append(UInt8(ascii: "}"))
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
        // The runs `write` puts, the id three times, and the closing brace.
        var size = backHead.count + 2 * pathHead.count + frontHead.count + idHead.count + levelHead.count + 1
            + 3 * id + 2 * directories[level].count + levelNames[level].count
            + names[front].count + names[back].count + mediaTypes[front].count + mediaTypes[back].count
        let tags = outlines.tags(at: position)
        if !tags.isEmpty {
            // The head, the closing bracket, a comma between two, each tag quoted.
            size += tagsHead.count + 1 + tags.count - 1
            for tag in tags { size += 2 + JSONString.escapedCount(tag) }
        }
        return size
    }
}
