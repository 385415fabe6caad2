import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// A failed call to the daemon in words for a page, as the terminal says it, with the status
/// that fits: 503 when the daemon cannot be reached, 404 for a card that is not there, 409 for a
/// change the box refused, 502 for an answer that cannot be read.
struct DaemonProblem: Equatable {
    var status: Int
    var title: String
    var message: String

    init(_ error: any Error) {
        if let client = error as? VarlinkClientError {
            switch client {
            case .notListening(let path, _):
                self.init(503, "The daemon is not running",
                          "Nothing answers on '\(path)': start leitnerd (systemctl --user start leitnerd.socket, or run leitnerctl once).")
            default:
                self.init(503, "The daemon cannot be reached", client.description)
            }
            return
        }
        if let reply = error as? BoxReplyError {
            self.init(502, "The daemon's answer cannot be read", reply.description)
            return
        }
        guard let call = error as? VarlinkCallError else {
            self.init(500, "Something failed", String(describing: error))
            return
        }
        if let box = BoxError(call) {
            switch box {
            case .testComplete: self.init(409, "Today's test is complete", box.description)
            case .nothingToUndo: self.init(409, "Nothing to undo", "There is no grade of today to undo.")
            case .noSuchCard: self.init(404, "No such card", box.description)
            case .notInTest: self.init(409, "Not in today's test", box.description)
            case .invalidTag: self.init(400, "Not a tag", box.description)
            case .notSuspended: self.init(409, "Not suspended", box.description)
            // The page shows the reason beside the grade it keeps (R35): a clock to set, most often.
            case .keptGradeRefused: self.init(422, "A kept grade was refused", box.description)
            case .storeFailure(let path, let reason, _, _):
                self.init(500, "A card or the store is damaged",
                          "The store failed at '\(path)': \(reason). Nothing was changed; leitnerctl doctor tells more.")
            default: self.init(409, "The box refused", box.description)
            }
            return
        }
        switch BoxConnectionError(call) {
        case .tooManyConnections(let limit)?:
            self.init(503, "The daemon is busy", "It serves as many connections as it may (MaxConnections=\(limit)): try again in a moment.")
        case .connectionClosed(let reason)?:
            self.init(503, "The daemon closed the connection", reason)
        case nil:
            self.init(502, "The daemon refused", call.description)
        }
    }

    init(_ status: Int, _ title: String, _ message: String) {
        self.status = status
        self.title = title
        self.message = message
    }
}
