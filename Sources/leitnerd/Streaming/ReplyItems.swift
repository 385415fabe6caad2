import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The items of a streamed reply (docs/daemon.md, "Streamed replies"), given a batch at a time:
/// the cards of `List`, the entries of `Log`, the days of `Calendar`, the lines of `Search`, the
/// problems of `Doctor`.
/// A streamed method's handler begins the reading under the box's turn and returns one of these;
/// `StreamedReply` then takes the batches and sends the parts.
protocol ReplyItems: AnyObject {
    /// One item: what writes its JSON when its part is made, on the connection's thread, not
    /// under the box's turn (a `Card`, or a `JSONValue` made whole).
    associatedtype Item: JSONWritable

    /// The reply's array member (`cards`).
    var member: String { get }
    /// True when the next batch is read from the box, under its turn; false when the items need
    /// no box once begun (a snapshot, or a file read on a descriptor of its own), or no more.
    var needsBox: Bool { get }
    /// The next batch, which may be empty; nil when there is no more.
    /// - Parameter context: the box, while the turn is held; nil when `needsBox` is false.
    func next(_ context: BoxMethods.Context?) throws -> [Item]?
    /// What an item is, for a message about it (`card 'hola'`).
    func describe(_ item: Item) -> String
    /// The items still to come, at most, when known: room for them is made once, not by
    /// doubling a reply of megabytes (`VarlinkReplyParts.reserve`).
    var itemsLeft: Int? { get }
    /// True when more items may follow those given so far: with `more`, the first batch that
    /// brings items is then sent as a part of its own (`StreamedReply`). By default, when
    /// `itemsLeft` says some do.
    var mayGiveMore: Bool { get }
    /// How many bytes `item.serialize` writes, counted without writing them; nil when it is not
    /// known so (then for no item). Items that know it are sent without `more` as one reply in
    /// pieces, its length counted before its first byte, rather than made whole first
    /// (`StreamedReply`).
    func serializedSize(of item: Item) -> Int?
}

extension ReplyItems {
    var itemsLeft: Int? { nil }
    var mayGiveMore: Bool { (itemsLeft ?? 0) > 0 }
    func serializedSize(of item: Item) -> Int? { nil }
}
