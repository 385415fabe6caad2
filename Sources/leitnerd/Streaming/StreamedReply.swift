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
final class StreamedReply {
    private let items: any ReplyItems
    private var parts: VarlinkReplyParts
    private let owner: BoxOwner
    /// The frame that ends the replies, once known; sent after the ready parts.
    private var last: [UInt8]?
    private var finished = false

    init(items: any ReplyItems, parts: VarlinkReplyParts, owner: BoxOwner) {
        self.items = items
        self.parts = parts
        self.owner = owner
    }

    /// True once the last frame has been given.
    var isComplete: Bool { finished && last == nil }

    /// The next frame to send; nil once the last one has been given.
    /// - Parameter wake: the connection's doorbell, for its waits at the box.
    func nextFrame(wake: Wake) -> [UInt8]? {
        while true {
            if let frame = parts.nextReadyFrame() { return frame }
            if finished {
                defer { last = nil }
                return last
            }
            produce(wake: wake)
        }
    }

    /// Takes the next batch of items into the parts, or ends the replies.
    private func produce(wake: Wake) {
        produce(items, wake: wake)
    }

    /// `produce`, with the items' own type: each item is written into its part here, after the
    /// box's turn that read the batch.
    private func produce<Items: ReplyItems>(_ items: Items, wake: Wake) {
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
            end(with: error.reply.frame)
        case .success(nil):
            end(with: parts.finish())
        case .success(let made?):
            for item in made {
                do throws(VarlinkReplyParts.Overflow) {
                    try parts.append(item)
                } catch {
                    end(with: BoxError.replyTooLarge(reason: reason(error, items.describe(item))).varlinkReply.frame)
                    return
                }
            }
            if let left = items.itemsLeft { parts.reserve(forItems: left) }
        }
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
