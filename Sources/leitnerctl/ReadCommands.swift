import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The commands that only read: status, list, show, calendar, log, doctor, next.
enum ReadCommands {
    static func views(_ context: Context) -> Views { Views(style: context.style, width: Console.width) }

    /// `status`: today, the test, the cards per level, this week.
    static func status(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.status()
        if context.json { return context.printJSON(reply.json) }
        let views = views(context)
        let style = context.style
        let status = reply.value
        Console.out(style.apply(style.bold, "Today \(status.today)") + " · " + views.test(status))
        Console.out()
        for line in views.counts(status.counts) { Console.out(line) }
        for line in views.places(status) { Console.out(line) }
        Console.out()
        for line in views.week(try context.box.week(of: status)) { Console.out(line) }
        if let behind = status.clockBehind.map(DayClock.rfc3339) {
            // Today's date and test follow the clock; a clock set back shows a day that is over.
            Console.out()
            Console.out(style.apply(style.red, "the clock is earlier than the last change: \(behind)"))
            Console.out(style.apply(style.dim, "  today's date and test follow the clock; set it right (timedatectl) before reviewing"))
        }
        if status.test.syncing > 0 {
            // A sync tool is moving cards (docs/sync.md): they are counted again once it is done.
            Console.out()
            Console.out(style.apply(style.dim, "syncing: \(status.test.syncing) card\(status.test.syncing == 1 ? "" : "s") in transit"))
        }
        let problems = status.problems
        if problems > 0 {
            Console.out()
            Console.out(style.apply(style.red, "\(problems) problem\(problems == 1 ? "" : "s") in the store: see 'leitnerctl doctor'"))
        }
    }

    /// `list [LEVEL] [--long] [--sort id|level|added]`: a table on a terminal, tab-separated
    /// fields elsewhere (`CardList`). In the daemon's order (by level, then id) each card is
    /// printed as its reply arrives (docs/protocol.md, "Streamed replies"); another order needs
    /// every card first.
    static func list(_ context: Context, _ arguments: ParsedArguments) throws {
        let level = try arguments.positionals.first.map { try Arguments.level($0, command: "list") }
        let order = arguments[.sort] ?? "level"
        guard listOrders.contains(order) else {
            throw Failure.usage(.invalidValue(order, what: "order", reason: "expected id, level or added", command: "list"))
        }
        // The table's widths come from the terminal, not from the cards, so that it can be
        // printed before the last card has come.
        let table = CardList(width: Console.stdoutTerminal.isTerminal ? Console.width : nil,
                             long: arguments.has(.long), style: context.style)
        // The header comes with the first card, so that a person at a terminal with nothing
        // to list gets a sentence rather than a header and no row.
        var listed = 0
        func show(_ cards: [(card: Card, json: JSONValue)]) {
            if context.json { return context.printJSONLines(cards.map(\.json)) }
            if listed == 0, !cards.isEmpty, let header = table.header { Console.out(header) }
            listed += cards.count
            for card in cards { Console.out(table.line(card.card)) }
            Console.flush()
        }
        var cards: [(card: Card, json: JSONValue)] = []
        let filter = try TagOptions.given(arguments, command: "list")
        try context.box.list(level: level, withText: true, tags: filter?.tags, notTags: filter?.notTags) { reply in
            let part = zip(reply.items, reply.json).map { (card: $0, json: $1) }
            if order == "level" { show(part) } else { cards += part }
        }
        if order == "id" {
            cards.sort { $0.card.id.utf8.lexicographicallyPrecedes($1.card.id.utf8) }
        } else if order == "added" {
            let place = try addedOrder(context: context)
            cards.sort { a, b in
                let (x, y) = (place[a.card.id] ?? Int.max, place[b.card.id] ?? Int.max)
                return x != y ? x < y : a.card.id.utf8.lexicographicallyPrecedes(b.card.id.utf8)
            }
        }
        if order != "level" { show(cards) }
        if listed == 0, let filter, !context.json {
            // A filter that chooses no card is most often a mistyped tag: said on a terminal
            // and on a pipe, with exit status 1 as `search` (and grep) when nothing matches.
            Console.error(filter.noneChosen(level: level))
            throw Failure.quiet(ExitStatus.failure)
        }
        if !context.json, listed == 0, table.header != nil {
            let level = arguments.positionals.first
            Console.out(level == nil ? "No cards in the box." : level == "finished"
                        ? "No finished cards." : "No cards in level \(level!).")
        }
    }

    /// Each card's place in the order cards were added, from the review log's `add` lines (a
    /// rename carries the place over to the new id); cards the log does not know have none and
    /// come last, by id.
    static func addedOrder(context: Context) throws -> [String: Int] {
        var added: [String: Int] = [:]
        var index = 0
        try context.box.log { part in
            for entry in part.items {
                defer { index += 1 }
                guard let id = entry.id else { continue }
                switch entry.event {
                case .add: added[id] = added[id] ?? index
                case .rename: if let to = entry.renamedTo, let place = added.removeValue(forKey: id) { added[to] = place }
                default: break
                }
            }
        }
        return added
    }

    /// `show ID`: the card in full.
    static func show(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.show(id: arguments.positionals[0])
        if context.json { return context.printJSON(reply.json) }
        for line in views(context).card(reply.value) { Console.out(line) }
    }

    /// `next`: the card at the head of today's queue, for scripts.
    static func next(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.next()
        if context.json { return context.printJSON(reply.json) }
        let views = views(context)
        guard let card = reply.value.card else {
            Console.out("No card to review: " + views.test(reply.value.test))
            return
        }
        for line in views.card(card) { Console.out(line) }
    }

    /// `calendar [FROM [TO]]`: one line a day.
    static func calendar(_ context: Context, _ arguments: ParsedArguments) throws {
        let status = try context.box.status().value
        let today = status.today
        // R23: today's admissions still to come (the test has not opened), apart from those made.
        let toComeToday = status.arrivals.map { $0.date == today ? $0.cards : 0 } ?? 0
        let from = try arguments.positionals.first.map { try Arguments.date($0, today: today, command: "calendar") }
            ?? today.adding(days: -7)
        let to = try arguments.positionals.dropFirst().first.map { try Arguments.date($0, today: today, command: "calendar") }
            ?? max(from, today).adding(days: 14)
        guard from <= to else {
            // The words as typed, and the dates they stand for (`+5 -5` are relative to today).
            throw Failure.usage(.invalidValue(arguments.positionals.joined(separator: " "), what: "date range",
                                              reason: "TO \(to) is before FROM \(from)", command: "calendar"))
        }
        let style = context.style
        var printed = 0
        try context.box.calendar(from: from, to: to) { part in
            if context.json { return context.printJSONLines(part.json) }
            // The days before the box existed held nothing and missed nothing: a line each
            // would only say so (#35).
            for day in part.items where day.state != .none {
                printDay(day)
                printed += 1
            }
            Console.flush()
        }
        if !context.json && printed == 0 { Console.out("The box did not exist yet on those days.") }
        func printDay(_ day: CalendarDay) {
            let look = switch day.state {
            case .completed: style.green
            case .missed: style.red
            case .today: style.bold + style.yellow
            case .skipped, .none: style.dim
            case .upcoming: ""
            }
            let line = "\(day.date.weekdayAbbreviation) \(day.date)  "
                + style.apply(look, Views(style: style, width: 0).pad(day.state.rawValue, 10))
                + Views(style: style, width: 0).pad(day.levels.map(\.name).joined(separator: ","), 8)
                + "\(day.cards) card\(day.cards == 1 ? "" : "s")"
                // What the count is, in place: 'stats' forecasts days to come as if each test
                // were done, so its figure for tomorrow differs from this one (#25).
                + (day.state == .today || day.state == .upcoming ? style.apply(style.dim, " in its levels now")
                   : day.state == .none ? "" : " graded")
                + arrivals(day)
            Console.out(line)
        }
        /// New cards into level 1 (R23): logged for the past, forecast for days to come, and
        /// today both, told apart: "+20 new from new/" would still promise cards that came.
        func arrivals(_ day: CalendarDay) -> String {
            let count = day.arrivals ?? 0
            let toCome = day.state == .upcoming ? count : day.date == today ? toComeToday : 0
            var words: [String] = []
            if count - toCome > 0 { words.append("\(count - toCome) came from new/") }
            if toCome > 0 { words.append("+\(toCome) new from new/" + (day.date == today ? " when the test opens" : "")) }
            return words.isEmpty ? "" : style.apply(style.dim, " · " + words.joined(separator: ", "))
        }
    }

    /// How many entries plain `log` shows on a terminal: a screenful of the latest, as
    /// `systemctl status` shows a unit's last lines, rather than every add of an import (#35).
    static let terminalLogEntries = 20

    /// The orders `list --sort` takes.
    static let listOrders = ["id", "level", "added"]

    /// `log [--since DATE] [--limit N] [--all]`: one event a line.
    static func log(_ context: Context, _ arguments: ParsedArguments) throws {
        let since = try arguments[.since].map { try logStart($0, context) }
        var limit = try arguments[.limit].map { text in
            guard let n = Int(text), n >= 0 else {
                throw Failure.usage(.invalidValue(text, what: "limit", reason: "expected a number of entries", command: "log"))
            }
            return n
        }
        // Scripts (a pipe, --json) get every entry, as before; a person the latest.
        let shortened = limit == nil && since == nil && !arguments.has(.all) && !context.json
            && Console.stdoutTerminal.isTerminal
        if shortened { limit = terminalLogEntries }
        var printed = 0
        let style = context.style
        // A line names its device only when the entries come from more than one (docs/sync.md).
        var devices = LogDevices()
        do {
            try context.box.log(since: since, limit: limit) { part in
                if context.json { return context.printJSONLines(part.json) }
                for entry in part.items {
                    for shown in devices.take(entry) { printEntry(shown) }
                }
                Console.flush()
            }
        } catch {
            // What came before a failure is printed, as it was before lines were held.
            for shown in devices.finish() { printEntry(shown) }
            Console.flush()
            throw error
        }
        for shown in devices.finish() { printEntry(shown) }
        if shortened && printed == terminalLogEntries {
            Console.out(context.style.apply(context.style.dim, "(the last \(terminalLogEntries) entries: "
                                            + "'leitnerctl log --all' shows every one, --since DATE those from a day on)"))
        }
        Console.flush()
        func printEntry(_ entry: LogEntry) {
            printed += 1
            // The widest event with its origin, "delete (by hand)", and two spaces before the id.
            var line = DayClock.rfc3339(entry.time) + "  " + Views(style: style, width: 0).pad(Views.event(entry), 18)
            var card = entry.id ?? ""
            if let renamedTo = entry.renamedTo { card += " → " + renamedTo }
            let from = entry.from?.name, to = entry.to?.name
            // The levels in a column of their own for the usual ids (the log is printed as it
            // streams, so the width is fixed rather than measured); a longer id pushes them on.
            let levels: String? = if let to, from == nil, entry.event == .add { "→ \(to)" }
                else if from != nil || to != nil { "\(from ?? "–") → \(to ?? "–")" } else { nil }
            line += levels.map { Views(style: style, width: 0).pad(card, 18) + "  " + $0 } ?? card
            if let correct = entry.correct {
                line += "  " + (correct ? style.apply(style.green, "correct") : style.apply(style.red, "wrong"))
            }
            if let ms = entry.answerMs { line += style.apply(style.dim, "  \(Double(ms / 100) / 10) s") }
            if let device = devices.suffix(entry) { line += style.apply(style.dim, "  " + device) }
            Console.out(line)
        }
    }

    /// `--since`'s value as `Log` takes it: a date or an RFC 3339 time is sent as it is; `today`
    /// and `+N`/`-N` become the date, as `calendar` reads them (the daemon's today); anything
    /// else is a usage error here rather than the daemon's bare refusal of the parameter.
    private static func logStart(_ text: String, _ context: Context) throws -> String {
        if LogicalDate(text) != nil || DayClock.parseRFC3339(text) != nil { return text }
        let relative = text == "today" || (text.count > 1 && (text.first == "+" || text.first == "-")
            && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
        guard relative else {
            throw Failure.usage(.invalidValue(text, what: "date", reason:
                "expected YYYY-MM-DD, a time such as 2026-11-21T20:30:00+01:00, today or -N", command: "log"))
        }
        let today = try context.box.status().value.today
        return try Arguments.date(text, today: today, command: "log").description
    }

    /// `doctor`: every problem with what to do about it, as the daemon finds them; exit 1 when
    /// there is one.
    /// A `[Voice] Program=` written in the configuration whose program is not on `PATH` (R33):
    /// the voice is then silent, which the review says once; the default, `espeak-ng` when it is
    /// installed, is no problem when it is not.
    static func voiceProblem(_ settings: ClientSettings) -> (path: String, reason: String, advice: String)? {
        guard let command = settings.voiceProgram, let program = command.split(separator: " ").first.map(String.init) else { return nil }
        let path = ConfigurationLocator.processEnvironment()["PATH"] ?? ""
        if program.hasPrefix("/") ? access(program, X_OK) == 0 : ConfigurationLocator.executable(named: program, onPath: path) != nil {
            return nil
        }
        let package = program.hasSuffix("piper") ? "piper" : program.hasSuffix("espeak") ? "espeak" : "espeak-ng"
        return (settings.configurationSource ?? "leitner.conf",
                "[Voice] Program=\(command): '\(program)' is not found on PATH, so no card is spoken",
                "install the package \(package) (apt install \(package)), or set Program= to an installed program, or empty for no voice")
    }

    static func doctor(_ context: Context, _ arguments: ParsedArguments) throws {
        if arguments[.resolve] != nil || arguments[.keep] != nil {
            return try WriteCommands.resolveConflict(context, arguments)
        }
        let style = context.style
        var count = 0
        try context.box.doctor { part in
            count += part.items.count
            if context.json { return context.printJSONLines(part.json) }
            for problem in part.items {
                Console.out(style.apply(style.bold, "'\(problem.path)'") + ": " + problem.reason)
                Console.out("  " + style.apply(style.dim, problem.advice))
            }
            Console.flush()
        }
        if let problem = voiceProblem(context.settings) {
            count += 1
            if context.json {
                context.printJSONLines([["kind": "voiceProgram", "path": .string(problem.path), "reason": .string(problem.reason),
                                         "advice": .string(problem.advice)]])
            } else {
                Console.out(style.apply(style.bold, "'\(problem.path)'") + ": " + problem.reason)
                Console.out("  " + style.apply(style.dim, problem.advice))
            }
        }
        if !context.json {
            Console.out(count == 0 ? "No problems found." : "\(count) problem\(count == 1 ? "" : "s") found.")
        }
        if count > 0 { throw Failure.quiet(ExitStatus.failure) }
    }
}
