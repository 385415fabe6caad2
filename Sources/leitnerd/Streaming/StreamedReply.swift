import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The reply of a streamed method (docs/daemon.md, "Streamed replies"), made a part at a time as
/// the connection sends it: the connection's thread asks for the next frame only once the one
/// before is sent, so the daemon holds one part and one batch of items, never the whole reply.
///
/// A batch that needs the box is read under its turn, taken for that batch alone: the other
/// calls are served between two batches. An error ends the replies with it, after the parts
/// already made: the box failing (`StoreFailure`), or the reply not fitting the message size
/// limit (`ReplyTooLarge`).
///
/// Without `more`, the one reply must be known to fit the limit before any of it is sent. Items
/// that know their length without being written (`ReplyItems.serializedSize`: a `List` without
/// text) are gathered, counted, not written, until the last batch; the reply is then announced
/// (`VarlinkReplyParts.announce`) and written a piece at a time as the connection sends it —
/// 12 bytes a card held rather than the 250 of its JSON. Other items are written into the one
/// reply as they come.
///
/// With `more`, the first batch that brings items is sent as a part of its own, not held until
/// a part is full, when the items say more may follow (`ReplyItems.mayGiveMore`: a listing's
/// cards left, a search not yet done): a listing's first cards reach the client after one small
/// batch (`CardItems.firstBatchSize`), a search's first lines while the cards after them are
/// still looked for; the next parts are cut at about 64 KiB.
final class StreamedReply<Items: ReplyItems>: ReplyStream {
    private let items: Items
    private var parts: VarlinkReplyParts
    private let owner: BoxOwner
    /// The frame that ends the replies, once known; sent after the ready parts.
    private var last: [UInt8]?
    private var finished = false
    /// Whether the items are gathered before the reply is written: decided at the first item
    /// (nil before), true without `more` for items that know their length.
    private var gathers: Bool?
    /// The batches gathered, and the length of their items with a comma between two.
    private var gathered: [[Items.Item]] = []
    private var gatheredSize = 0
    private var gatheredCount = 0
    /// Once every batch is gathered and the reply announced: the next item to write.
    private var writing: (batch: Int, item: Int)?
    /// True once a batch brought items: with `more`, that first batch goes out as a part of its
    /// own, however small, so that the client shows the first items while the next are read.
    private var firstSent = false

    init(items: Items, parts: VarlinkReplyParts, owner: BoxOwner) {
        self.items = items
        self.parts = parts
        self.owner = owner
    }

    private(set) var wasAbandoned = false

    var isComplete: Bool { finished && last == nil }

    var isMidMessage: Bool { parts.isMidMessage }

    func nextFrame(wake: Wake, peerClosed: () -> Bool) -> [UInt8]? {
        while true {
            if let frame = parts.nextReadyFrame() { return frame }
            if finished {
                defer { last = nil }
                return last
            }
            if writing != nil {
                writeGathered()
            } else if items.needsBox, peerClosed() {
                // Nobody reads on (`leitnerctl search | head` once head has its lines): the batch
                // is not read under the box's turn, and what the stream holds is let go now,
                // not when its send fails a part later.
                abandon()
                return nil
            } else {
                produce(wake: wake)
            }
        }
    }

    /// Ends the stream for a client that has gone, dropping the parts and batches it holds.
    private func abandon() {
        wasAbandoned = true
        parts = VarlinkReplyParts(member: parts.member, limit: parts.limit, more: parts.more)
        gathered = []
        writing = nil
        last = nil
        finished = true
    }

    /// Takes the next batch of items into the parts (or gathers it), or ends the replies. Each
    /// item is written into its part here, after the box's turn that read the batch.
    private func produce(wake: Wake) {
        let batch: Result<[Items.Item]?, ErrorReply>
        if items.needsBox {
            batch = owner.run(wake: wake) { context in try items.next(context) }
        } else {
            do { batch = .success(try items.next(nil)) } catch {
                batch = .failure(ErrorReply(reply: ErrorReplies.reply(for: error, storePath: owner.storePath)))
            }
        }
        switch batch {
        case .failure(let error):
            gathered = []
            end(with: error.reply.frame)
        case .success(nil):
            guard gathers == true else { return end(with: parts.finish()) }
            do throws(VarlinkReplyParts.Overflow) {
                try parts.announce(itemBytes: gatheredSize)
                writing = (0, 0)
            } catch {
                gathered = []
                end(with: BoxError.replyTooLarge(reason: reason(error, "")).varlinkReply.frame)
            }
        case .success(let made?):
            if gathers == nil, let first = made.first {
                gathers = !parts.more && items.serializedSize(of: first) != nil
            }
            if gathers == true { return gather(made) }
            for item in made {
                do throws(VarlinkReplyParts.Overflow) {
                    try parts.append(item)
                } catch {
                    end(with: BoxError.replyTooLarge(reason: reason(error, items.describe(item))).varlinkReply.frame)
                    return
                }
            }
            if let left = items.itemsLeft { parts.reserve(forItems: left) }
            if !firstSent, !made.isEmpty {
                firstSent = true
                // Only when more items may follow: an answer the first batch holds whole stays
                // one reply, not a part and an empty last one.
                if items.mayGiveMore { parts.cut() }
            }
        }
    }

    /// Keeps a batch to write once all are in, counting its length: a reply that would pass the
    /// limit is refused as soon as the items gathered pass it, before the rest is read.
    private func gather(_ batch: [Items.Item]) {
        for item in batch {
            gatheredSize += (items.serializedSize(of: item) ?? 0) + (gatheredCount > 0 ? 1 : 0)
            gatheredCount += 1
        }
        guard parts.fits(itemBytes: gatheredSize) else {
            gathered = []
            let overflow = VarlinkReplyParts.Overflow.needsMore(limit: parts.limit)
            return end(with: BoxError.replyTooLarge(reason: reason(overflow, "")).varlinkReply.frame)
        }
        gathered.append(batch)
    }

    /// Writes the gathered items into the announced reply until a piece of it is ready, or to
    /// its end; each batch is let go once written.
    private func writeGathered() {
        guard let next = writing else { return }
        var (batch, item) = next
        while batch < gathered.count {
            let items = gathered[batch]
            while item < items.count {
                parts.write(items[item])
                item += 1
                if parts.hasReadyFrame {
                    writing = (batch, item)
                    return
                }
            }
            gathered[batch] = []
            batch += 1
            item = 0
        }
        gathered = []
        writing = nil
        end(with: parts.finish())
    }

    private func end(with frame: [UInt8]) {
        last = frame
        finished = true
    }

    /// What `ReplyTooLarge` says: to call with `more`, or which item cannot fit in any message.
    private func reason(_ overflow: VarlinkReplyParts.Overflow, _ item: String) -> String {
        switch overflow {
        case .needsMore(let limit):
            return "the reply would be longer than the daemon's message size limit of \(limit) bytes (MaxMessageSize=): "
                + "call with \"more\": true to receive it in parts"
        case .itemTooLarge(_, let size, let limit):
            return "\(item) alone makes a reply of \(size) bytes, longer than the daemon's message size "
                + "limit of \(limit) bytes (MaxMessageSize=)"
        }
    }
}
