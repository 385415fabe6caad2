import LeitnerCore

/// The review without a terminal (a pipe, a script): the same flow, one answer a line on
/// standard input: Enter (or `f`) shows the back, then `y`, `n`, `u` or `q`; `s` suspends the
/// card, `e` edits it, `m LEVEL` moves it; end of input quits.
final class ReviewLines: ReviewInterface {
    let views: Views
    /// False in practice, whose answers move nothing: `u` is not offered there (R27).
    let undoes: Bool

    init(context: Context, undoes: Bool) {
        views = Views(style: context.style, width: Console.width)
        self.undoes = undoes
    }

    func show(card: Card, progress: ReviewProgress, flipped: Bool, message: String) {
        if !message.isEmpty { Console.out(message) }
        let u = undoes ? "u/" : ""
        if !flipped {
            // The progress as on the screen, and no id: an id may give the answer away.
            Console.out("[" + progress.words + (progress.part.map { " · " + $0 } ?? "") + " · card: level \(card.level.name)]")
            for line in views.side(card.front) { Console.out(line.isEmpty ? "" : "  " + line) }
            Console.write("show back? [Enter/\(u)q/s/e/m LEVEL] ")
        } else {
            Console.out("  ---")
            for line in views.side(card.back) { Console.out(line.isEmpty ? "" : "  " + line) }
            Console.write("correct? [y/n/\(u)q/s/e/m LEVEL] ")
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
            let answer = line.trimmingTrailingSpaces().lowercased()
            // `m 3`, `move suspended`: the level follows the key on the same line.
            let words = answer.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, words[0] == "m" || words[0] == "move" {
                if let level = Level(name: words[1]) { return .move(level) }
                Console.write("'\(words[1])' is no level: m 1 to 7, finished, new or suspended: ")
                Console.flush()
                continue
            }
            switch answer {
            case "" where flipped && proposal != nil: return proposal! ? .correct : .wrong
            case "", "f", "flip", " ": if !flipped { return .flip }
            case "y", "yes", "c", "correct": if flipped { return .correct }
            case "n", "no", "w", "wrong": if flipped { return .wrong }
            case "u", "undo": return .undo
            case "q", "quit": return .quit
            case "s", "suspend": return .suspend
            case "e", "edit": return .edit
            default: break
            }
            Console.write(flipped ? "answer y (correct), n (wrong), \(undoes ? "u (undo), " : "")q (quit), s (suspend), e (edit) or m LEVEL (move): "
                          : "press Enter to show the back, \(undoes ? "u to undo, " : "")q to quit, s to suspend, e to edit, m LEVEL to move: ")
            Console.flush()
        }
    }

    var proposal: Bool?

    func readAnswer() -> String? {
        Console.write("your answer: ")
        Console.flush()
        guard let line = readLine() else {
            Console.out()
            return nil
        }
        if !Console.stdinTerminal.isTerminal { Console.out() }
        return line
    }

    /// The lines' terminal (if any) is in its own modes already: the editor just runs.
    func releasingTerminal<T>(_ body: () throws -> T) throws -> T { try body() }

    func finish(_ lines: [String]) {
        for line in lines { Console.out(line) }
    }
}
