import Glibc
import LeitnerClient
import LeitnerProtocol

/// What the learner does with a card.
enum ReviewAction: Equatable {
    case flip, correct, wrong, undo, quit
}

/// The two faces of the review: keys on a terminal, lines on a pipe.
protocol ReviewInterface: AnyObject {
    /// Shows the front (and, once flipped, the back) of `card`, with the progress line and a
    /// message about the last action.
    func show(card: JSONValue, flipped: Bool, progress: String, message: String)
    /// Waits for the learner's action; `flipped` says which actions make sense.
    func action(flipped: Bool) -> ReviewAction
    /// Leaves the review (restoring the terminal) and prints `lines`.
    func finish(_ lines: [String])
}

/// `review`: runs today's test: Next, show, flip, Grade with the answer time; Undo; quit
/// keeping the progress (the daemon keeps the test, R10, R11).
enum ReviewCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let onTerminal = Console.stdinTerminal.isTerminal && Console.stdoutTerminal.isTerminal && !arguments.has("--plain")
        let prepared = try context.call("Prepare").value("test")
        let interface: any ReviewInterface
        if onTerminal {
            do {
                interface = try ReviewScreen(context: context)
            } catch {
                throw Failure.failed("cannot set up the terminal: \(error)")
            }
        } else {
            interface = ReviewLines(context: context)
        }
        var session = Session(startLevels: prepared.strings("levels"))
        do {
            try session.loop(context: context, interface: interface)
        } catch {
            interface.finish([])
            throw error
        }
        interface.finish(session.summary(context.style))
    }

    /// The state of one sitting: what was graded, the message to show next.
    struct Session {
        var startLevels: [String]
        var correct = 0
        var wrong = 0
        var undone = 0
        var quit = false
        var finalTest: JSONValue = .null

        mutating func loop(context: Context, interface: any ReviewInterface) throws {
            var message = ""
            while true {
                let reply = try context.call("Next")
                let test = reply.value("test")
                finalTest = test
                let card = reply.value("card")
                if card.isNull { return }
                let progress = "\(test.int("passed") + 1)/\(test.int("passed") + test.int("remaining")) · "
                    + Views.levels(test.strings("levels"))
                let shown = monotonicMilliseconds()
                var flipped = false
                interface.show(card: card, flipped: false, progress: progress, message: message)
                MediaOpener(settings: context.settings).open(card.value("front"))
                message = ""
                var action = interface.action(flipped: false)
                while true {
                    if action == .flip && !flipped {
                        flipped = true
                        MediaOpener(settings: context.settings).open(card.value("back"))
                        interface.show(card: card, flipped: true, progress: progress, message: "")
                        action = interface.action(flipped: true)
                        continue
                    }
                    break
                }
                switch action {
                case .quit:
                    quit = true
                    return
                case .undo:
                    do {
                        let undoneCard = try context.call("Undo").value("card")
                        undone += 1
                        message = "Undone: '\(undoneCard.string("id"))' is back in level \(undoneCard.string("level"))."
                    } catch let error as VarlinkCallError {
                        message = DaemonErrors.message(error)
                    }
                case .correct, .wrong:
                    let isCorrect = action == .correct
                    let graded = try context.call("Grade", ["id": .string(card.string("id")), "correct": .bool(isCorrect),
                                                            "answerMs": .int(Int64(monotonicMilliseconds() - shown))])
                    if isCorrect { correct += 1 } else { wrong += 1 }
                    finalTest = graded.value("test")
                    message = (isCorrect ? "✓ " : "✗ ") + "'\(card.string("id"))' → level \(graded.value("card").string("level"))"
                case .flip:
                    continue
                }
            }
        }

        func summary(_ style: TextStyle) -> [String] {
            var lines: [String] = []
            let graded = correct + wrong
            lines.append("This sitting: \(graded) answer\(graded == 1 ? "" : "s"), \(style.apply(style.green, "\(correct) correct")), "
                         + style.apply(style.red, "\(wrong) wrong") + (undone > 0 ? ", \(undone) undone" : "") + ".")
            let state = finalTest.string("state")
            if quit {
                lines.append("Progress kept: \(finalTest.int("remaining")) card\(finalTest.int("remaining") == 1 ? "" : "s") to go. Run 'leitnerctl review' to go on.")
            } else if state == "completed" {
                lines.append("Today's test is complete: \(finalTest.int("passed")) passed, \(finalTest.int("failed")) failed on the way. See you tomorrow.")
            } else {
                lines.append("No card to review today (\(Views.levels(finalTest.strings("levels")))).")
            }
            return lines
        }
    }

    static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
