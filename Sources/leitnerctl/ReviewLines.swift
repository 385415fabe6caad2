import LeitnerCore

/// The review without a terminal (a pipe, a script): the same flow, one answer a line on
/// standard input: Enter (or `f`) shows the back, then `y`, `n`, `u` or `q`; end of input quits.
final class ReviewLines: ReviewInterface {
    let views: Views

    init(context: Context) { views = Views(style: context.style, width: Console.width) }

    func show(card: Card, test: TestSummary, flipped: Bool, message: String) {
        if !message.isEmpty { Console.out(message) }
        if !flipped {
            // The progress as on the screen, and no id: an id may give the answer away.
            let passed = test.passed, repeating = test.repeating
            Console.out("[\(passed + 1) of \(passed + test.remaining)" + (repeating > 0 ? " · \(repeating) to repeat" : "")
                        + " · test: \(Views.levels(test.levels)) · card: level \(card.level.name)]")
            for line in views.side(card.front) { Console.out(line.isEmpty ? "" : "  " + line) }
            Console.write("show back? [Enter/u/q] ")
        } else {
            Console.out("  ---")
            for line in views.side(card.back) { Console.out(line.isEmpty ? "" : "  " + line) }
            Console.write("correct? [y/n/u/q] ")
        }
        Console.flush()
    }

    func action(flipped: Bool) -> ReviewAction {
        while true {
            guard let line = readLine() else {
                Console.out()
                return .quit
            }
            // Typed answers end their own line; read from a pipe, end it here.
            if !Console.stdinTerminal.isTerminal { Console.out() }
            switch line.trimmingTrailingSpaces().lowercased() {
            case "", "f", "flip", " ": if !flipped { return .flip }
            case "y", "yes", "c", "correct": if flipped { return .correct }
            case "n", "no", "w", "wrong": if flipped { return .wrong }
            case "u", "undo": return .undo
            case "q", "quit": return .quit
            default: break
            }
            Console.write(flipped ? "answer y (correct), n (wrong), u (undo) or q (quit): " : "press Enter to show the back, u to undo, q to quit: ")
            Console.flush()
        }
    }

    func finish(_ lines: [String]) {
        for line in lines { Console.out(line) }
    }
}
