import Glibc
import LeitnerClient
import LeitnerProtocol
import LeitnerSystem

/// The review on a terminal: one card a screen, read key by key in raw mode.
final class ReviewScreen: ReviewInterface {
    let terminal: RawTerminal
    let style: TextStyle
    let media: MediaOpener

    init(context: Context) throws(Errno) {
        style = context.style
        media = MediaOpener(settings: context.settings)
        terminal = try RawTerminal()
    }

    func show(card: JSONValue, flipped: Bool, progress: String, message: String) {
        let size = Console.stdoutTerminal.size ?? (columns: 80, rows: 24)
        let width = min(size.columns - 4, 100)
        let views = Views(style: style, width: width)
        var screen = "\u{1B}[H\u{1B}[2J"
        func line(_ text: String = "") { screen += "  " + text + "\r\n" }
        line(style.apply(style.bold, "leitner review") + " · " + progress
             + style.apply(style.dim, "   \(card.string("id")) · level \(card.string("level"))"))
        line(style.apply(style.dim, String(repeating: "─", count: width)))
        line()
        screen += sideText(card.value("front"), views: views, line: line)
        if flipped {
            line()
            line(style.apply(style.dim, String(repeating: "╌", count: width)))
            line()
            screen += sideText(card.value("back"), views: views, line: line)
        }
        line()
        if !message.isEmpty { line(style.apply(style.dim, message)) }
        line(style.apply(style.dim, flipped ? "y/→ correct   n/← wrong   u undo   q quit"
                                            : "Space/Enter show the answer   u undo   q quit"))
        Console.write(screen)
        Console.flush()
    }

    /// The lines of a side; an image goes inline when the terminal can show it.
    private func sideText(_ side: JSONValue, views: Views, line: (String) -> Void) -> String {
        if side.string("mediaType") == "image/png", let graphics = media.inlineImage(side) {
            line("")
            return graphics + "\r\n"
        }
        for text in views.side(side) { line(text) }
        return ""
    }

    func action(flipped: Bool) -> ReviewAction {
        while true {
            guard let key = try? terminal.readKey() else { return .quit }
            switch key {
            case .flip: if !flipped { return .flip }
            case .correct: if flipped { return .correct }
            case .wrong: if flipped { return .wrong }
            case .undo: return .undo
            case .quit: return .quit
            case .other: break
            }
        }
    }

    func finish(_ lines: [String]) {
        terminal.restore()
        for line in lines { Console.out(line) }
    }
}
