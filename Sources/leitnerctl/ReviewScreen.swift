import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// The review on a terminal (docs/leitnerctl.md, "The review"): a fixed header (the progress,
/// what is reviewed when it is not the whole test, the card's level — its id only on `i`, as an
/// id may give the answer away),
/// the card scrolled between, a fixed footer (the last action's message, the keys). The
/// screen is drawn again at once when the terminal is resized.
final class ReviewScreen: ReviewInterface {
    let terminal: RawTerminal
    let style: TextStyle
    let media: MediaOpener

    /// What is on the screen now (set by `show` before anything is drawn).
    private var card: Card?
    private var progress: ReviewProgress?
    /// False in practice, whose answers move nothing: `u` is not offered there (R27).
    private let undoes: Bool
    private var flipped = false
    private var message = ""
    private var scroll = 0
    private var showsId = false
    /// The side's own sounds played on this card (`r`): the next press plays the next (R31).
    private var soundsPlayed = 0
    /// Keys read but not handled yet: one read may bring several.
    private var typedAhead: [Key] = []
    /// The last frame drawn: its scroll limits and page height answer the scroll keys.
    private var frame: ScreenFrame?
    /// What is typed after `m`, the level to move the card to; nil when no level is asked for.
    private var levelPrompt: String?
    /// The answer being typed (R32) and the cursor's place in it, in characters; nil: none asked.
    private var answerLine: [Character]?
    private var cursor = 0
    var proposal: Bool?

    init(context: Context, images chosen: ImageProtocol?, undoes: Bool) throws(Errno) {
        style = context.style
        self.undoes = undoes
        terminal = try RawTerminal()
        let images = chosen ?? ReviewScreen.detect(terminal)
        media = MediaOpener(context: context, images: images)
    }

    /// Asks the terminal which image protocol it speaks (docs/leitnerctl.md, "Images"): kitty's
    /// graphics query, then DA1, answered within 300 ms by any terminal that is there.
    static func detect(_ terminal: RawTerminal) -> ImageProtocol {
        let reply = terminal.ask(ImageProtocolDetection.kittyQuery + ImageProtocolDetection.deviceAttributesQuery,
                                 milliseconds: 300, complete: ImageProtocolDetection.isComplete)
        return ImageProtocolDetection.choose(reply: reply, environment: MediaOpener.environment)
    }

    func show(card: Card, progress: ReviewProgress, flipped: Bool, message: String) {
        let newCard = card.id != self.card?.id || !flipped
        // A side shown for the first time, not drawn again (a resize, an edit's return).
        let newSide = card.id != self.card?.id || flipped != self.flipped
        self.card = card
        self.progress = progress
        self.flipped = flipped
        if newCard {
            scroll = 0
            showsId = false
            soundsPlayed = 0
        }
        // A new side comes into view: show where the back starts, play its sound.
        var notes = message
        let side: SideName = flipped ? .back : .front
        if let note = media.playIfAudio(card, side: side, asked: false) {
            notes = notes.isEmpty ? note : notes + " · " + note
        } else if newSide, media.context.settings.autoSpeak.speaks(side), let note = media.speak(card, side: side, automatic: true) {
            notes = notes.isEmpty ? note : notes + " · " + note
        }
        self.message = notes
        draw()
        if flipped, let frame {
            // When the back would start below the screen, scroll to where it starts: the front
            // was read already, `k` brings it back.
            let front = ScreenFrame(columns: frame.columns, rows: frame.rows, headerParts: frame.header, body:
                                        lay(columns: frame.columns, rows: frame.rows, views: views(frame.columns), frontOnly: true),
                                    message: "", keyParts: [], scroll: 0, style: style).bodyLineCount
            if front + 2 > frame.bodyHeight {
                scroll = front
                draw()
            }
        }
    }

    private func views(_ columns: Int) -> Views { Views(style: style, width: max(20, columns - 4)) }

    /// The card as blocks: the front, and once flipped a dashed rule and the back.
    private func lay(columns: Int, rows: Int, views: Views, frontOnly: Bool = false) -> [ScreenBlock] {
        guard let card else { return [] }
        let imageRows = max(3, rows - 9)
        var blocks = media.blocks(card, side: .front, views: views, columns: columns - 2, rows: imageRows)
        if flipped && !frontOnly {
            blocks.append(.text(style.apply(style.dim, String(repeating: "╌", count: max(1, columns - 4)))))
            blocks += media.blocks(card, side: .back, views: views, columns: columns - 2, rows: imageRows)
        }
        return blocks
    }

    /// Draws the whole screen for the terminal's size now.
    private func draw() {
        let size = Console.stdoutTerminal.size ?? (columns: 80, rows: 24)
        guard let card, let progress else { return }
        let views = views(size.columns)
        // The progress as every view says it (TestWords), and no test's levels: "test: levels
        // 2, 1" means nothing on the first day (#35).
        var header = [style.apply(style.bold, TestWords.progress(done: progress.done, of: progress.cards))]
        if progress.repeating > 0 { header.append("\(progress.repeating) to repeat") }
        if let part = progress.part { header.append(part) }
        header.append("card: level \(card.level.name)")
        if showsId { header.append("id: " + card.id) }
        // The keys that matter most first: at 40 columns the last ones may not fit.
        // The card's own actions after the scroll and id keys, which every card needs; a narrow
        // terminal (40 columns) may leave them out of the line, not out of the keys.
        let cardKeys = ["j/k/PgDn scroll", "i id", "s suspend", "e edit", "m move", "o open", "r play the sound", "v voice"]
        let undo = undoes ? ["u undo"] : []
        let keys = flipped
            ? ["y/→ correct", "n/← wrong"] + undo + ["q quit"] + cardKeys
            : ["Space/Enter show the answer"] + undo + ["q quit"] + cardKeys
        // While `m` asks for a level, the footer is the prompt, so that what is typed is seen.
        if let answerLine {
            var shown = answerLine
            shown.insert("▏", at: min(cursor, shown.count))
            let frame = ScreenFrame(columns: size.columns, rows: size.rows, headerParts: header,
                                    body: lay(columns: size.columns, rows: size.rows, views: views),
                                    // The last grade's message stays in sight while the next answer is typed.
                                    message: (message.isEmpty ? "" : style.apply(style.dim, message) + " · ")
                                        + "answer: " + style.apply(style.bold, String(shown)),
                                    keyParts: ["Enter check", "←/→ move", "Backspace", "Ctrl-U clear", "Ctrl-C quit"],
                                    scroll: scroll, style: style)
            self.frame = frame
            Console.write((media.images == .kitty ? ImageEscapes.kittyDeleteAll : "") + frame.output)
            Console.flush()
            return
        }
        let footer = levelPrompt.map { "move to level: " + style.apply(style.bold, $0 + "▏") + "  1–7, finished, new, suspended" }
        let frame = ScreenFrame(columns: size.columns, rows: size.rows, headerParts: header,
                                body: lay(columns: size.columns, rows: size.rows, views: views),
                                message: footer ?? style.apply(style.dim, message),
                                keyParts: levelPrompt != nil ? ["Enter move", "Esc cancel"] : keys.filter(usefulKey),
                                scroll: scroll, style: style)
        scroll = frame.scroll
        self.frame = frame
        var out = media.images == .kitty ? ImageEscapes.kittyDeleteAll : ""
        out += frame.output
        Console.write(out)
        Console.flush()
    }

    /// `o` and `r` are shown only when the card has a side they work on.
    private func usefulKey(_ key: String) -> Bool {
        guard let card else { return false }
        let types = (flipped ? [card.front, card.back] : [card.front]).map(\.mediaType)
        if key.hasPrefix("o ") { return types.contains { !$0.isEmpty && !$0.hasPrefix("text/") } }
        if key.hasPrefix("r ") { return types.contains { $0.hasPrefix("audio/") } || !media.sounds(card, flipped: flipped).isEmpty }
        return true
    }

    func action(flipped: Bool) -> ReviewAction {
        while true {
            // Keys read with an earlier one that ended a wait (typed ahead) come first.
            while !typedAhead.isEmpty {
                if let action = handle(typedAhead.removeFirst(), flipped: flipped) { return action }
            }
            switch nextEvent() {
            case .resized:
                draw()
            case .keys(let keys):
                typedAhead = keys
            case .woken: break  // not returned by nextEvent
            }
        }
    }

    /// The next keys or resize. While a sound plays, the player is looked at four times a
    /// second, and when it ended without playing (no sound device, say) the message line says
    /// what it said: a key that plays never does nothing without a word.
    private func nextEvent() -> RawTerminal.Event {
        while true {
            let event = terminal.next(wakeAfter: media.audio.isPlaying ? 250 : nil)
            guard event == .woken else { return event }
            if let note = media.audio.ended() {
                message = note
                draw()
            }
        }
    }

    /// Does what a key does on the screen; returns the action it ends the wait with, if any.
    private func handle(_ key: Key, flipped: Bool) -> ReviewAction? {
        if levelPrompt != nil { return prompt(key) }
        let page = max(1, (frame?.bodyHeight ?? 10) - 1)
        switch key {
        case .enter where flipped && proposal != nil: return proposal! ? .correct : .wrong
        case .character(" "), .enter: if !flipped { return .flip }
        case .character("y"), .character("Y"), .right: if flipped { return .correct }
        case .character("n"), .character("N"), .left: if flipped { return .wrong }
        case .character("u"), .character("U"): return .undo
        case .character("q"), .character("Q"), .controlC, .controlD, .endOfInput: return .quit
        case .character("s"), .character("S"): return .suspend
        case .character("e"), .character("E"): return .edit
        case .character("m"), .character("M"):
            levelPrompt = ""
            draw()
        case .character("j"), .down: scrollTo(scroll + 1)
        case .character("k"), .up: scrollTo(scroll - 1)
        case .pageDown, .character("f"), .character("d"): scrollTo(scroll + page)
        case .pageUp, .character("b"): scrollTo(scroll - page)
        case .home, .character("g"): scrollTo(0)
        case .end, .character("G"): scrollTo(frame?.maxScroll ?? 0)
        case .character("i"), .character("I"):
            showsId.toggle()
            draw()
        case .character("o"), .character("O"):
            if let card, let side = mediaSide(flipped: flipped, where: { !$0.hasPrefix("text/") }) {
                message = media.open(card, side: side)
            } else {
                message = "nothing to open: this side is text"
            }
            draw()
        case .character("v"), .character("V"):
            if let card {
                message = media.speak(card, side: flipped ? .back : .front) ?? ""
                draw()
            }
        case .character("r"), .character("R"):
            if let card, let side = mediaSide(flipped: flipped, where: { $0.hasPrefix("audio/") }) {
                message = media.playIfAudio(card, side: side, asked: true) ?? ""
                draw()
            } else if let card, !media.sounds(card, flipped: flipped).isEmpty {
                // A side's own sounds (R31), one a press, in turn.
                message = media.playSound(card, flipped: flipped, index: soundsPlayed)
                soundsPlayed += 1
                draw()
            }
        default: break
        }
        return nil
    }

    /// A key while `m` asks for the level: typed into the prompt; Enter ends it with the move,
    /// Escape (or Ctrl-C) without. A name that is no level says so and moves nothing.
    private func prompt(_ key: Key) -> ReviewAction? {
        let typed = levelPrompt ?? ""
        switch key {
        case .enter:
            levelPrompt = nil
            let name = typed.trimmingTrailingSpaces()
            if let level = Level(name: name) { return .move(level) }
            message = name.isEmpty ? "not moved" : "not moved: '\(name)' is no level (1 to 7, finished, new or suspended)"
        case .escape, .controlC, .controlD:
            levelPrompt = nil
            message = "not moved"
        case .endOfInput:
            levelPrompt = nil
            return .quit
        case .character("\u{7F}"), .character("\u{08}"):
            levelPrompt = String(typed.dropLast())
        case .character(let character) where !character.isWhitespace || !typed.isEmpty:
            // The longest level name is `suspended`; more is a mistake the screen need not hold.
            if typed.count < 16 { levelPrompt = typed + String(character) }
        default:
            break
        }
        draw()
        return nil
    }

    func readAnswer() -> String? {
        answerLine = []
        cursor = 0
        defer { answerLine = nil }
        draw()
        while true {
            let keys: [Key]
            if typedAhead.isEmpty {
                switch nextEvent() {
                case .resized, .woken: draw(); continue
                case .keys(let read): keys = read
                }
            } else {
                keys = typedAhead
                typedAhead = []
            }
            for (index, key) in keys.enumerated() {
                guard var line = answerLine else { return nil }
                switch key {
                case .enter:
                    typedAhead = Array(keys[(index + 1)...])
                    return String(line)
                case .controlC, .controlD, .endOfInput:
                    return nil
                case .left: cursor = max(0, cursor - 1)
                case .right: cursor = min(line.count, cursor + 1)
                case .home: cursor = 0
                case .end: cursor = line.count
                case .character("\u{7F}"), .character("\u{08}"):
                    // A grapheme at a time: "が" typed as か and a voicing mark goes at once.
                    if cursor > 0 { line.remove(at: cursor - 1); cursor -= 1 }
                case .character("\u{15}"):
                    line = []
                    cursor = 0
                case .character(let character) where !(character.asciiValue.map { $0 < 0x20 } ?? false):
                    // A combining mark joins the character before it: re-split the line.
                    let before = String(line[..<cursor]) + String(character)
                    let after = line[cursor...]
                    line = Array(before + String(after))
                    cursor = before.count
                default: break
                }
                answerLine = line
            }
            draw()
        }
    }

    /// The side shown whose media type `matches`, the back first once flipped.
    private func mediaSide(flipped: Bool, where matches: (String) -> Bool) -> SideName? {
        guard let card else { return nil }
        return (flipped ? [SideName.back, .front] : [.front]).first { matches(card.side($0).mediaType) }
    }

    private func scrollTo(_ line: Int) {
        let clamped = min(max(0, line), frame?.maxScroll ?? 0)
        guard clamped != scroll else { return }
        scroll = clamped
        draw()
    }

    func releasingTerminal<T>(_ body: () throws -> T) throws -> T {
        terminal.pause()
        defer {
            do { try terminal.resume() } catch {
                // Without raw mode the keys still come, a line at a time: say so rather than stop.
                message = "cannot set the terminal's modes again: \(error)"
            }
        }
        return try body()
    }

    func finish(_ lines: [String]) {
        media.finish()
        terminal.restore()
        for line in lines { Console.out(line) }
    }
}
