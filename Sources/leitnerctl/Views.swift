import LeitnerClient
import LeitnerCore
import LeitnerProtocol

/// How leitnerctl shows the box's values (the interface's types) to a person.
struct Views {
    let style: TextStyle
    let width: Int

    /// "levels 2, 1"
    /// Where a card is, for a sentence: `level 3`, or `finished` (not "level finished").
    static func place(_ level: Level) -> String {
        level == .finished || level.isPlace ? level.name : "level \(level.name)"
    }

    static func levels(_ levels: [Level]) -> String {
        levels.isEmpty ? "no levels" : (levels.count == 1 ? "level " : "levels ") + levels.map(\.name).joined(separator: ", ")
    }

    /// A test in one line: `test #13 · levels 2, 1 · open · 4 of 27 done · 1 to repeat`, its
    /// progress as the review and the web say it (TestWords).
    func test(_ test: TestSummary) -> String {
        let look = switch test.state {
        case .completed: style.green
        case .open: style.yellow
        case .empty: style.dim
        }
        return "test \(Views.ordinal(test)) · \(Views.levels(test.levels)) · "
            + style.apply(look, test.state.rawValue)
            + " · " + TestWords.progress(test)
    }

    /// Today's test as `status` says it, with the new cards its opening brings into level 1
    /// (R23): `test #1 · levels 2, 1 · opens with 20 new cards` where the test alone read
    /// `empty · 0 of 0 done` to a newcomer who had just imported a deck, and `open · 0 of 27
    /// done, 20 of them new` where it said 7 and the review then showed 27.
    func test(_ status: BoxStatus) -> String {
        let test = status.test, arriving = TestWords.arriving(status)
        guard arriving > 0, test.state != .completed else { return self.test(test) }
        let head = "test \(Views.ordinal(test)) · \(Views.levels(test.levels)) · "
        guard test.state == .open else {
            return head + style.apply(style.yellow, "opens with \(arriving) new card\(arriving == 1 ? "" : "s")")
        }
        return head + style.apply(style.yellow, test.state.rawValue) + " · " + TestWords.progress(status)
    }

    /// A test as people count them, `#1` for the box's first: its cycle position (the days
    /// recorded before it) plus one. "test 0" read as "no test" (#25).
    static func ordinal(_ test: TestSummary) -> String {
        "#\(test.position + 1)"
    }

    /// A log entry's event with where it came from: `add` (a client asked the daemon),
    /// `add (by hand)` (a card made in the store by hand), `add (adopted)` (a loose pair),
    /// `delete (settled)` (a card settled after a sync, docs/sync.md), `add (for its note)` (a cloze
    /// card its note's new number made, R30).
    static func event(_ entry: LogEntry) -> String {
        let event = entry.event.rawValue
        switch entry.origin {
        case nil: return event
        case .hand?: return event + " (by hand)"
        case .adopt?: return event + " (adopted)"
        case .admit?: return event + " (admitted)"
        case .leech?: return event + " (leech, suspended)"
        case .sync?: return event + " (settled)"
        case .note?: return event + " (for its note)"
        case let other?: return event + " (\(other))"
        }
    }

    /// For a box without a card in any level or place (a new one), how to put some in: said by
    /// `status` and at the review's end.
    static func noCards(_ status: BoxStatus) -> String? {
        guard status.counts.values.allSatisfy({ $0 == 0 }) else { return nil }
        return "The box has no cards yet: add some with 'leitnerctl add FRONT BACK' or 'leitnerctl import FILE'."
    }

    /// The next test with cards when it is not today's (the box's one answer, `Status`'s
    /// `next`), what waits in `new/` and when it arrives (R23), and the leeches (R24): a line
    /// each, none when there is nothing to say; for a box without a card, how to put some in
    /// (a newcomer's first `leitnerctl` showed a table of zeros and no way on).
    func places(_ status: BoxStatus) -> [String] {
        var lines: [String] = []
        if let noCards = Views.noCards(status) { lines.append(noCards) }
        if let next = status.next, next.date != status.today {
            lines.append("Next test: " + TestWords.next(next, today: status.today))
        }
        let waiting = status.counts[.new] ?? 0
        if waiting > 0 {
            var line = "\(waiting) new card\(waiting == 1 ? "" : "s") waiting"
            if let arrivals = status.arrivals {
                let when = arrivals.date == status.today ? "today, when the test opens"
                    : arrivals.date == status.today.next ? "tomorrow" : "on \(arrivals.date)"
                line += "; \(arrivals.cards) arrive\(arrivals.cards == 1 ? "s" : "") \(when)"
            }
            lines.append(line)
        }
        if let leeches = status.leeches, leeches > 0 {
            lines.append(style.apply(style.yellow, "\(leeches) leech\(leeches == 1 ? "" : "es"): see 'leitnerctl stats'"))
        }
        return lines
    }

    /// The cards per level as a two-row table.
    func counts(_ counts: [Level: Int]) -> [String] {
        var head = "Level "
        var row = "Cards "
        for level in Level.allCases {
            let label = level == .finished ? "done" : level.name
            let number = String(counts[level] ?? 0)
            let cell = max(label.count, number.count) + 2
            head += pad(label, cell, right: true)
            row += pad(number, cell, right: true)
        }
        return [style.apply(style.dim, head), row]
    }

    /// The week as a paper Leitner calendar: one column a day with its date, its state and
    /// its levels.
    func week(_ days: [CalendarDay]) -> [String] {
        // A day's column is 9 wide, wider when a `Cycle=` entry names more levels than fit
        // (`1,2,3,4,5,6,7`): each column ends with two spaces, so that no two run together.
        let cell = max(9, (days.map { Views.levelList($0.levels).count }.max() ?? 0) + 2)
        // A terminal narrower than the week (65 columns) gets it in rows of the days that fit,
        // rather than lines the terminal wraps in the middle of a day.
        let perRow = width > 0 ? max(1, min(7, (width - 2) / cell)) : 7
        return stride(from: 0, to: days.count, by: perRow).flatMap { start in
            (start == 0 ? [] : [""]) + weekRow(days[start..<min(days.count, start + perRow)], cell: cell)
        }
    }

    /// The levels of a day's test as the week shows them: `2,1`.
    static func levelList(_ levels: [Level]) -> String { levels.map(\.name).joined(separator: ",") }

    /// One row of `week`: its days' dates, states and levels, in columns `cell` wide.
    private func weekRow(_ days: ArraySlice<CalendarDay>, cell: Int) -> [String] {
        var header = "", states = "", levels = ""
        for day in days {
            let date = day.date
            let mark: (String, String) = switch day.state {
            case .completed: ("✓ done", style.green)
            case .skipped: ("– skip", style.dim)
            case .missed: ("✗ missed", style.red)
            case .today: ("▶ today", style.bold + style.yellow)
            // Before the box existed: nothing was due, nothing was missed.
            case .upcoming, .none: ("", "")
            }
            header += day.state == .none ? style.apply(style.dim, pad("\(date.weekdayAbbreviation) \(date.components.day)", cell))
                : pad("\(date.weekdayAbbreviation) \(date.components.day)", cell)
            states += style.apply(mark.1, pad(mark.0, cell))
            levels += pad(Views.levelList(day.levels), cell)
        }
        return [header, states, levels].map { "  " + $0.trimmingTrailingSpaces() }
    }

    /// A side in a short form for lists: its text's first line, or its media type.
    static func brief(_ side: Side, limit: Int) -> String {
        if let text = side.text {
            let line = text.split(separator: "\n").first.map(String.init) ?? ""
            return DisplayWidth.of(line) > limit ? String(line.prefix(limit - 1)) + "…" : line
        }
        return "[\(side.mediaType)]"
    }

    /// A side in full: text printed (Markdown rendered), other media as their path; a
    /// Markdown side's own pictures and sounds (R31) as their paths where it names them.
    func side(_ side: Side) -> [String] {
        let mediaType = side.mediaType
        if let parts = parts(side) {
            return parts.flatMap { part -> [String] in
                switch part {
                case .lines(let lines): lines
                case .medium(let medium): [style.apply(style.dim, "[\(medium.mediaType)] ") + medium.path]
                }
            }
        }
        if var text = side.text {
            // A file's last line ends with a newline: that is no empty line of the card's.
            while text.last?.isNewline == true { text.removeLast() }
            if mediaType == "text/markdown" { return MarkdownRenderer(width: width, style: style).render(text) }
            return MarkdownRenderer(width: width, style: style).wrap(text)
        }
        return [style.apply(style.dim, "[\(mediaType)] ") + side.path]
    }

    /// A part of a Markdown side that refers to media (R31): lines of text, or a medium the
    /// side lists, to be drawn or played where the side names it.
    enum SidePart {
        case lines([String])
        case medium(Medium)
    }

    /// The parts of `side` when it is Markdown that refers to media, nil when it refers to
    /// none (then it is drawn as it always was). A reference the daemon did not list (a path,
    /// a file that is not there) is shown as it is written, as text.
    func parts(_ side: Side) -> [SidePart]? {
        guard side.mediaType == "text/markdown", var text = side.text else { return nil }
        while text.last?.isNewline == true { text.removeLast() }
        let parsed = SideMedia(parsing: text)
        guard parsed.hasReferences else { return nil }
        let renderer = MarkdownRenderer(width: width, style: style)
        var parts: [SidePart] = []
        var pending = ""
        func flush() {
            if !pending.allSatisfy(\.isWhitespace) { parts.append(.lines(renderer.render(pending))) }
            pending = ""
        }
        for piece in parsed.pieces {
            switch piece {
            case .text(let run): pending += run
            case .image(_, let name, _), .sound(let name, _):
                if let medium = side.medium(named: name) {
                    flush()
                    parts.append(.medium(medium))
                } else {
                    flush()
                    parts.append(.lines(renderer.wrap(piece.written)))
                }
            case .refused(let written, _, _, _):
                flush()
                parts.append(.lines(renderer.wrap(written)))
            }
        }
        flush()
        return parts
    }

    /// A card as `show` prints it.
    func card(_ card: Card) -> [String] {
        var lines = [style.apply(style.bold, card.id) + style.apply(style.dim, " · \(Views.place(card.level))")
                     + (card.reverseOf.map { style.apply(style.dim, " · " + CardList.reverseMark($0) + ", its sides swapped") } ?? "")
                     + (card.clozeOf.map { style.apply(style.dim, " · " + $0.description + ", its note's text") } ?? "")]
        if !card.tags.isEmpty { lines.append(style.apply(style.dim, "tags: ") + card.tags.joined(separator: ", ")) }
        lines.append(style.apply(style.dim, "front:"))
        lines += self.side(card.front).map { "  " + $0 }
        lines.append(style.apply(style.dim, "back:"))
        lines += self.side(card.back).map { "  " + $0 }
        return lines
    }

    func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
        return right ? gap + text : text + gap
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}

extension MarkdownRenderer {
    /// Plain text wrapped to the width, its own line breaks kept.
    func wrap(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            wrap(String(line), first: "", rest: "")
        }
    }
}
