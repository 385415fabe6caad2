import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// The commands that only read: status, list, show, calendar, log, doctor, next.
enum ReadCommands {
    static func views(_ context: Context) -> Views { Views(style: context.style, width: Console.width) }

    /// `status`: today, the test, the cards per level, this week.
    static func status(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.call("Status")
        if context.json { return context.printJSON(reply) }
        let views = views(context)
        let style = context.style
        let today = reply.value("today").stringValue ?? ""
        Console.out(style.apply(style.bold, "Today \(today)") + " · " + views.test(reply.value("test")))
        Console.out()
        for line in views.counts(reply.value("counts")) { Console.out(line) }
        if let date = LogicalDate(today) {
            let monday = date.adding(days: -date.weekday)
            var days: [JSONValue] = []
            try context.stream("Calendar", ["from": .string(monday.description),
                                            "to": .string(monday.adding(days: 6).description)], member: "days") { days += $0 }
            Console.out()
            for line in views.week(days) { Console.out(line) }
        }
        let problems = reply.value("problems").intValue ?? 0
        if problems > 0 {
            Console.out()
            Console.out(style.apply(style.red, "\(problems) problem\(problems == 1 ? "" : "s") in the store: see 'leitnerctl doctor'"))
        }
    }

    /// `list [LEVEL]`: one card a line, id, level, front and back in brief, printed as the
    /// daemon's replies arrive (docs/protocol.md, "Streamed replies").
    static func list(_ context: Context, _ arguments: ParsedArguments) throws {
        var parameters: [String: JSONValue] = ["withText": true]
        if let level = arguments.positionals.first {
            parameters["level"] = .string(try Arguments.level(level, command: "list"))
        }
        let views = views(context)
        // The id column is as wide as the first reply's ids need: the rest have not come yet.
        var idWidth: Int?
        try context.stream("List", parameters, member: "cards") { cards in
            if context.json { return context.printJSONLines(cards) }
            let width = idWidth ?? min(24, cards.map { DisplayWidth.of($0.string("id")) }.max() ?? 2)
            idWidth = width
            // "finished" is 8 columns: the level column is 9, so that a space always follows it.
            let sideWidth = max(10, (Console.width - width - 15) / 2)
            for card in cards {
                let front = Views.brief(card.value("front"), limit: sideWidth)
                let back = Views.brief(card.value("back"), limit: sideWidth)
                Console.out(views.pad(card.string("id"), width) + "  " + views.pad(card.string("level"), 9)
                            + views.pad(front, sideWidth) + "  " + context.style.apply(context.style.dim, back))
            }
            Console.flush()
        }
    }

    /// `show ID`: the card in full.
    static func show(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.call("Show", ["id": .string(arguments.positionals[0])])
        if context.json { return context.printJSON(reply) }
        for line in views(context).card(reply.value("card")) { Console.out(line) }
    }

    /// `next`: the card at the head of today's queue, for scripts.
    static func next(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.call("Next")
        if context.json { return context.printJSON(reply) }
        let views = views(context)
        let card = reply.value("card")
        if card.isNull {
            Console.out("No card to review: " + views.test(reply.value("test")))
            return
        }
        for line in views.card(card) { Console.out(line) }
    }

    /// `calendar [FROM [TO]]`: one line a day.
    static func calendar(_ context: Context, _ arguments: ParsedArguments) throws {
        let status = try context.call("Status")
        guard let today = LogicalDate(status.value("today").stringValue ?? "") else {
            throw Failure.failed("the daemon's answer has no date")
        }
        let from = try arguments.positionals.first.map { try Arguments.date($0, today: today, command: "calendar") }
            ?? today.adding(days: -7)
        let to = try arguments.positionals.dropFirst().first.map { try Arguments.date($0, today: today, command: "calendar") }
            ?? max(from, today).adding(days: 14)
        guard from <= to else {
            throw Failure.usage(.invalidValue(to.description, what: "date range", reason: "TO is before FROM", command: "calendar"))
        }
        let style = context.style
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        try context.stream("Calendar", ["from": .string(from.description), "to": .string(to.description)],
                           member: "days") { days in
            if context.json { return context.printJSONLines(days) }
            for day in days { printDay(day) }
            Console.flush()
        }
        func printDay(_ day: JSONValue) {
            let date = LogicalDate(day.string("date"))
            let state = day.string("state")
            let look = switch state {
            case "completed": style.green
            case "missed": style.red
            case "today": style.bold + style.yellow
            case "skipped", "none": style.dim
            default: ""
            }
            let line = "\(date.map { names[$0.weekday] } ?? "   ") \(day.string("date"))  "
                + style.apply(look, Views(style: style, width: 0).pad(state, 10))
                + Views(style: style, width: 0).pad(day.strings("levels").joined(separator: ","), 8)
                + "\(day.int("cards")) card\(day.int("cards") == 1 ? "" : "s")"
            Console.out(line)
        }
    }

    /// `log [--since DATE] [--limit N]`: one event a line.
    static func log(_ context: Context, _ arguments: ParsedArguments) throws {
        var parameters: [String: JSONValue] = [:]
        if let since = arguments["--since"] { parameters["since"] = .string(since) }
        if let limit = arguments["--limit"] {
            guard let n = Int(limit), n >= 0 else {
                throw Failure.usage(.invalidValue(limit, what: "limit", reason: "expected a number of entries", command: "log"))
            }
            parameters["limit"] = .int(Int64(n))
        }
        let style = context.style
        try context.stream("Log", parameters, member: "entries") { entries in
            if context.json { return context.printJSONLines(entries) }
            for entry in entries { printEntry(entry) }
            Console.flush()
        }
        func printEntry(_ entry: JSONValue) {
            var line = entry.string("time") + "  " + Views(style: style, width: 0).pad(entry.string("event"), 9)
            if let id = entry["id"]?.stringValue { line += id }
            let from = entry["from"]?.stringValue, to = entry["to"]?.stringValue
            if from != nil || to != nil { line += "  \(from ?? "–") → \(to ?? "–")" }
            if let correct = entry["correct"]?.boolValue {
                line += "  " + (correct ? style.apply(style.green, "correct") : style.apply(style.red, "wrong"))
            }
            if let ms = entry["answerMs"]?.intValue { line += style.apply(style.dim, "  \(Double(ms / 100) / 10) s") }
            Console.out(line)
        }
    }

    /// `doctor`: every problem with what to do about it, as the daemon finds them; exit 1 when
    /// there is one.
    static func doctor(_ context: Context, _ arguments: ParsedArguments) throws {
        let style = context.style
        var count = 0
        try context.stream("Doctor", member: "problems") { problems in
            count += problems.count
            if context.json { return context.printJSONLines(problems) }
            for problem in problems {
                Console.out(style.apply(style.bold, "'\(problem.string("path"))'") + ": " + problem.string("reason"))
                Console.out("  " + style.apply(style.dim, problem.string("advice")))
            }
            Console.flush()
        }
        if !context.json {
            Console.out(count == 0 ? "No problems found." : "\(count) problem\(count == 1 ? "" : "s") found.")
        }
        if count > 0 { throw Failure.quiet(ExitStatus.failure) }
    }
}
