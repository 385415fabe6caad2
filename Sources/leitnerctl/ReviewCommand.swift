import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// What the learner does with a card: show its back, grade it, undo the last grade, quit; or
/// act on the card itself: suspend it, edit it in the editor, move it to a level.
enum ReviewAction: Equatable {
    case flip, correct, wrong, undo, quit
    case suspend, edit
    case move(Level)
}

/// How far the review has come, in the cards it reviews (docs/rules.md, "How far you are"):
/// the whole test's, the cards a choice of it takes (R26), or practice's own (R27), never the
/// test's counters beside a part of it or beside practice (#35).
struct ReviewProgress: Equatable {
    var done: Int
    var cards: Int
    var repeating: Int
    /// What is reviewed when it is not the whole test: `practice`, `a part of today's test`.
    var part: String?

    var words: String { TestWords.progress(done: done, of: cards, repeating: repeating) }
}

/// The two faces of the review: keys on a terminal, lines on a pipe.
protocol ReviewInterface: AnyObject {
    /// Shows the front (and, once flipped, the back) of `card` with how far the review is, and
    /// a message about the last action.
    func show(card: Card, progress: ReviewProgress, flipped: Bool, message: String)
    /// Waits for the learner's action; `flipped` says which actions make sense.
    func action(flipped: Bool) -> ReviewAction
    /// Leaves the review (restoring the terminal) and prints `lines`.
    func finish(_ lines: [String])
    /// Reads a typed answer (R32), the front shown; nil: the learner quit.
    func readAnswer() -> String?
    /// The grade a typed answer proposes, which Enter confirms once the back is shown; nil: none.
    var proposal: Bool? { get set }
    /// Runs `body` (the editor) with the terminal as the person left it before the review, and
    /// takes the review's terminal back afterwards.
    func releasingTerminal<T>(_ body: () throws -> T) throws -> T
}

/// `review`: runs today's test: Next, show, flip, Grade with the answer time; Undo; quit
/// keeping the progress (the daemon keeps the test, docs/rules.md R10, R11).
enum ReviewCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let filter = try TagOptions.given(arguments, command: "review")
        let levels = try arguments.all(.level).map { try Arguments.level($0, command: "review") }
        try review(context, arguments, command: "review", filter: filter) { _ in
            .test(tags: filter?.tags, notTags: filter?.notTags, levels: levels.isEmpty ? nil : levels)
        }
    }

    /// `practice`: the review's screen on cards chosen by the daemon (R27); answers move nothing.
    static func practice(_ context: Context, _ arguments: ParsedArguments) throws {
        let filter = try TagOptions.given(arguments, command: "practice")
        let levels = try arguments.all(.level).map { try Arguments.level($0, command: "practice") }
        func number(_ option: OptionName, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = arguments[option] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw Failure.usage(.invalidValue(text, what: option.text, reason: "expected \(range.lowerBound) to \(range.upperBound)",
                                                  command: "practice"))
            }
            return value
        }
        let wrongDays = try number(.wrongDays, 1...PracticeSelection.maxWrongDays)
        let limit = try number(.limit, 1...PracticeSelection.maxLimit)
        try review(context, arguments, command: "practice", filter: filter) { test in
            var cards: [Card] = []
            try context.box.practiceCards(tags: filter?.tags, notTags: filter?.notTags, levels: levels.isEmpty ? nil : levels,
                                          pattern: arguments[.search], wrongDays: wrongDays, limit: limit,
                                          shuffle: arguments.has(.shuffle) ? true : nil) { cards += $0.items }
            return .practice(cards: cards, test: test)
        }
    }

    /// The review's flow, shared by `review` and `practice`: the screen or the lines, then the
    /// loop over `source`'s cards, then the summary.
    static func review(_ context: Context, _ arguments: ParsedArguments, command: String, filter: TagOptions?,
                       source makeSource: (TestSummary) throws -> ReviewSource) throws {
        let onTerminal = Console.stdinTerminal.isTerminal && Console.stdoutTerminal.isTerminal && !arguments.has(.plain)
        let chosen: ImageProtocol?
        do {
            chosen = try ImageProtocol.named(arguments[.images] ?? context.settings.images)
        } catch {
            throw Failure.usage(.invalidValue(arguments[.images] ?? context.settings.images, what: "--images",
                                              reason: "expected auto, " + ImageProtocol.allCases.map(\.rawValue).joined(separator: ", "),
                                              command: command))
        }
        let prepared = try context.box.prepare().value
        let source = try makeSource(prepared)
        let interface: any ReviewInterface
        if onTerminal {
            do {
                interface = try ReviewScreen(context: context, images: chosen, undoes: !source.isPractice)
            } catch {
                throw Failure.failed("cannot set up the terminal: \(error)")
            }
        } else {
            interface = ReviewLines(context: context, undoes: !source.isPractice)
        }
        var session = Session(startLevels: prepared.levels, finalTest: prepared, source: source,
                              typesEveryAnswer: arguments.has(.type))
        do {
            try session.loop(context: context, interface: interface)
        } catch {
            interface.finish([])
            throw error
        }
        if session.cardsShown == 0, let filter, try selectsNoCard(context, filter) {
            // A tag no card has is most often mistyped: said as `list` says it, with exit status
            // 1, where the summary read "0 of 0 done" or "No card to practise" as if it were so.
            interface.finish([])
            Console.error(filter.noneChosen(level: nil))
            throw Failure.quiet(ExitStatus.failure)
        }
        interface.finish(session.summary(context))
    }

    /// True when `filter` chooses no card of the whole box, whatever its level or place.
    static func selectsNoCard(_ context: Context, _ filter: TagOptions) throws -> Bool {
        var any = false
        try context.box.list(withText: false, tags: filter.tags, notTags: filter.notTags, limit: 1) { part in
            any = any || !part.items.isEmpty
        }
        return !any
    }

    /// The state of one sitting: what was graded, the message to show next.
    struct Session {
        var startLevels: [Level]
        var correct = 0
        var wrong = 0
        var undone = 0
        /// Cards graded in this sitting elsewhere first (another review, a script): skipped.
        var skipped = 0
        /// Cards acted on with `s`, `m` and `e`: daemon calls, logged, no grades.
        var suspended = 0
        var moved = 0
        var edited = 0
        /// The last action's message when no card followed to show it with.
        var unshown = ""
        /// How many cards came to be shown in this sitting (a card that came back counts again).
        var cardsShown = 0
        var quit = false
        /// The test as the last reply said it is.
        var finalTest: TestSummary
        /// This sitting's grades that stand, in order: an undo of the last one takes it off, so
        /// that the summary's cards are the ones graded now.
        var grades: [(id: String, correct: Bool)] = []
        let started = ReviewCommand.monotonicMilliseconds()
        /// The test, a subset of it, or practice.
        var source: ReviewSource
        /// The queued cards a subset left out, as the last reply said.
        var outside = 0
        /// `review --type`: every card's answer is typed (R32).
        var typesEveryAnswer = false

        mutating func loop(context: Context, interface: any ReviewInterface) throws {
            var message = ""
            while true {
                let reply = try source.next(context)
                let test = reply.test
                outside = reply.outside
                if !source.isPractice { finalTest = test }
                let progress = progress(test, outside: reply.outside)
                guard var card = reply.card else {
                    // What the last action did (a suspend or move of the last card) is said in
                    // the summary: no card comes to show it beside.
                    unshown = message
                    return
                }
                cardsShown += 1
                var shown = monotonicMilliseconds()
                var action: ReviewAction
                // An edit shows the card again, front first, as it is now; any other action
                // leaves it.
                while true {
                    interface.show(card: card, progress: progress, flipped: false, message: message)
                    message = ""
                    interface.proposal = nil
                    var comparison = ""
                    if let expected = TypedAnswer.expected(card, everyCard: typesEveryAnswer) {
                        guard let typed = interface.readAnswer() else { quit = true; return }
                        let verdict = AnswerCheck(ignoresAccents: context.settings.ignoreAccents).check(typed: typed, expected: expected)
                        interface.proposal = verdict.isRight
                        comparison = TypedReview.describe(verdict, style: context.style)
                        action = .flip
                    } else {
                        action = interface.action(flipped: false)
                    }
                    if action == .flip {
                        interface.show(card: card, progress: progress, flipped: true, message: comparison)
                        action = interface.action(flipped: true)
                    }
                    guard action == .edit else { break }
                    message = edit(&card, context: context, interface: interface)
                    // The time spent in the editor is not the answer's.
                    shown = monotonicMilliseconds()
                }
                switch action {
                case .quit:
                    quit = true
                    return
                case .undo where source.isPractice:
                    // R27: a practice answer is no grade; there is nothing to take back.
                    message = "Practice answers are not undone: they moved nothing."
                case .undo:
                    do {
                        let undoneCard = try context.box.undo().value.card
                        undone += 1
                        // Undo may also reach a grade of an earlier sitting (R15): only this
                        // sitting's own last grade is taken off.
                        if grades.last?.id == undoneCard.id { grades.removeLast() }
                        // Not its id: the card comes back first, and its id may give its answer away.
                        message = "Undone: that card is back in \(Views.place(undoneCard.level)), first in the queue."
                    } catch let error as VarlinkCallError {
                        message = DaemonErrors.message(error)
                    }
                case .correct, .wrong:
                    let isCorrect = action == .correct
                    let id = card.id
                    guard let graded = try source.answer(card, correct: isCorrect, answerMs: Int(monotonicMilliseconds() - shown),
                                                         context: context) else {
                        // Two reviews share the test: the other one answered this card first
                        // (or finished the test). Not an error: go on with the queue as it is now.
                        skipped += 1
                        message = "That card was answered in another review meanwhile: skipped."
                        continue
                    }
                    if isCorrect { correct += 1 } else { wrong += 1 }
                    grades.append((id, isCorrect))
                    if source.isPractice {
                        message = (isCorrect ? "✓ " : "✗ ") + "'\(id)' practised, stays in \(Views.place(graded.card.level))"
                        continue
                    }
                    finalTest = graded.test
                    message = (isCorrect ? "✓ " : "✗ ") + "'\(id)' → \(Views.place(graded.card.level))"
                case .suspend, .move:
                    message = act(action, on: card, context: context)
                case .flip, .edit:
                    continue
                }
            }
        }

        /// How far this review is: the test's progress (`TestSummary.done` of its cards); for a
        /// part of the test, the cards it chose that this sitting passed of those and the ones
        /// still queued; for practice, the cards answered of those chosen.
        func progress(_ test: TestSummary, outside: Int) -> ReviewProgress {
            switch source {
            case .practice:
                return ReviewProgress(done: grades.count, cards: grades.count + test.remaining, repeating: 0, part: "practice")
            case .test where source.isSubset:
                let (passed, repeating) = sittingCards()
                return ReviewProgress(done: passed.count, cards: passed.count + max(0, test.remaining - outside),
                                      repeating: repeating.count, part: "a part of today's test")
            case .test:
                return ReviewProgress(done: test.done, cards: test.cards, repeating: test.repeating, part: nil)
            }
        }

        /// The cards this sitting answered right, and those it answered wrong and not right since.
        func sittingCards() -> (passed: Set<String>, repeating: Set<String>) {
            var passed = Set<String>(), repeating = Set<String>()
            for grade in grades {
                if grade.correct {
                    passed.insert(grade.id)
                    repeating.remove(grade.id)
                } else {
                    repeating.insert(grade.id)
                }
            }
            return (passed, repeating)
        }

        /// `s` and `m`: the card suspended or moved (R24, R12), out of the session unless the
        /// daemon's queue keeps it. Returns the message that says what happened and the way back:
        /// undo takes back grades only (R15), so the way back is another command.
        mutating func act(_ action: ReviewAction, on card: Card, context: Context) -> String {
            do {
                let message: String
                if case .move(let level) = action {
                    let movedCard = try context.box.move(id: card.id, to: level).value
                    moved += 1
                    message = "'\(card.id)' moved from \(Views.place(card.level)) to \(Views.place(movedCard.level)): "
                        + "'leitnerctl move \(card.id) \(card.level.name)' puts it back (u undoes grades only)."
                } else {
                    _ = try context.box.suspend(ids: [card.id])
                    suspended += 1
                    message = "'\(card.id)' suspended, out of every test: 'leitnerctl unsuspend \(card.id)' brings it back "
                        + "(u undoes grades only)."
                }
                source.leave(card.id)
                return message
            } catch {
                return DaemonErrors.message(for: error)
            }
        }

        /// `e`: the card's text sides in the editor (the flow of `leitnerctl edit`), the changes
        /// sent with `Edit`, and `card` as it is now. Returns the message that says what happened.
        mutating func edit(_ card: inout Card, context: Context, interface: any ReviewInterface) -> String {
            let id = card.id
            var notes: [String] = []
            do {
                let changes = try interface.releasingTerminal {
                    try EditCommand.inEditor(id, sides: nil, newExtension: nil, context: context) { notes.append($0) }.changes
                }
                let note = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
                guard !changes.isEmpty else { return "'\(id)' unchanged" + note + "." }
                let reply = try context.box.edit(id: id, front: changes[.front], back: changes[.back]).value
                card = reply.card
                source.replace(card)
                guard reply.changed else { return "'\(id)' unchanged" + note + "." }
                edited += 1
                let sides = SideName.allCases.filter { changes[$0] != nil }.map(\.rawValue).joined(separator: " and ")
                return "Edited the \(sides) of '\(id)'" + note + ": shown again. u does not undo an edit."
            } catch let failure as Failure {
                if case .failed(let text) = failure { return text }
                return "'\(id)' not edited."
            } catch {
                return DaemonErrors.message(for: error)
            }
        }

        /// True for the errors a grade gets when the card was answered in another review: it
        /// left the queue (`NotInTest`), the test completed (`TestComplete`), or it was deleted.
        static func answeredElsewhere(_ error: VarlinkCallError) -> Bool {
            switch BoxError(error) {
            case .notInTest?, .testComplete?, .noSuchCard?: true
            default: false
            }
        }

        func summary(_ context: Context) -> [String] {
            let style = context.style
            var lines: [String] = unshown.isEmpty ? [] : [unshown]
            let graded = correct + wrong
            // A review opened on a test already done (or with nothing due) says only that.
            if graded + undone + skipped > 0 {
                lines.append("This sitting: \(graded) answer\(graded == 1 ? "" : "s"), \(style.apply(style.green, "\(correct) correct")), "
                             + style.apply(style.red, "\(wrong) wrong") + (undone > 0 ? ", \(undone) undone" : "")
                             + (skipped > 0 ? ", \(skipped) skipped (answered in another review)" : "") + ".")
            }
            let acted = [(suspended, "suspended"), (moved, "moved"), (edited, "edited")].filter { $0.0 > 0 }
            if !acted.isEmpty {
                lines.append("Cards " + acted.map { "\($0.1): \($0.0)" }.joined(separator: ", ") + ".")
            }
            let time = "time: \(ReviewCommand.duration(milliseconds: monotonicMilliseconds() - started))"
            if source.isPractice {
                // Practice shows each card once (R27): no card comes back, none is repeated.
                if graded > 0 { lines.append("Cards: \(graded) · right: \(correct) · wrong: \(wrong) · " + time) }
                lines.append(graded == 0 ? "No card to practise." : "Practice only: no card moved, today's test is as it was.")
                return lines
            }
            var firstGrade: [String: Bool] = [:]
            var repeated = Set<String>()
            for grade in grades {
                if firstGrade[grade.id] == nil { firstGrade[grade.id] = grade.correct }
                if !grade.correct { repeated.insert(grade.id) }
            }
            if !firstGrade.isEmpty {
                let firstTime = firstGrade.values.filter { $0 }.count
                lines.append("Cards: \(firstGrade.count) · right first time: \(firstTime) · repeated: \(repeated.count) · " + time)
            }
            if source.isSubset && finalTest.state == .open {
                // R26: the cards the filter left out are still due; the test completes with them.
                lines.append("This part of today's test: " + progress(finalTest, outside: outside).words + ". "
                             + "\(outside) card\(outside == 1 ? "" : "s") of the test outside it remain\(outside == 1 ? "s" : "")"
                             + ": review without the choice for the rest.")
                return lines
            }
            if quit && finalTest.state == .open {
                // No program name: the one on PATH may be another box's, or none (`make try`'s
                // wrapper), and the person knows what they typed (#35).
                lines.append("Progress kept: " + TestWords.progress(finalTest) + "; review again to go on.")
                return lines
            }
            if finalTest.state == .completed {
                lines.append("Today's test is complete: " + TestWords.progress(finalTest)
                             + (finalTest.failed > 0 ? ", \(finalTest.failed) answered wrong on the way." : "."))
            } else {
                lines.append("No card to review today.")
            }
            if let next = nextTest(context) { lines.append(next) }
            return lines
        }

        /// "Next test: tomorrow, Sun 2026-11-29: 22 cards, 20 of them new.": the box's one answer
        /// (`Status`'s `next`), as `status`, `boxes` and the web say it. With none to come, why.
        func nextTest(_ context: Context) -> String? {
            guard let status = try? context.box.status().value else { return nil }
            if let next = status.next { return "Next test: " + TestWords.next(next, today: status.today) + "." }
            // No card in levels 1 to 7 or new/: a new box, or every card finished or suspended.
            if let noCards = Views.noCards(status) { return noCards }
            return "No test to come has cards now: every card is finished or suspended."
        }
    }

    /// "4 min 12 s", "35 s", "1 h 2 min".
    static func duration(milliseconds: Int) -> String {
        let seconds = max(0, milliseconds) / 1000
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }

    static func monotonicMilliseconds() -> Int { Int(MonotonicTime.now.milliseconds) }
}
