import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The commands that change the box: prepare, add, move, delete, undo, grade.
enum WriteCommands {
    /// `prepare`: opens today's test (the daily timer runs it).
    static func prepare(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.prepare()
        if context.json { return context.printJSON(reply.json) }
        let test = reply.value
        Console.out("\(test.date): " + Views(style: context.style, width: Console.width).test(test))
    }

    /// `add FRONT BACK`, sides from files with `--front-file`/`--back-file`.
    static func add(_ context: Context, _ arguments: ParsedArguments) throws {
        if let text = arguments[.cloze] {
            // What only a card with two sides has would be lost on a note without a word.
            let given = [(OptionName.reverse, arguments.has(.reverse), "a cloze note has no reverse card"),
                         (.frontFile, arguments[.frontFile] != nil, "a cloze note's sides are made from TEXT"),
                         (.backFile, arguments[.backFile] != nil, "a cloze note's sides are made from TEXT")]
            for (option, present, reason) in given where present {
                throw Failure.usage(.invalidValue(option.description, what: "option with --cloze", reason: reason, command: "add"))
            }
            return try addCloze(text, context, arguments)
        }
        var texts = arguments.positionals[...]
        // With media, a side given as text is Markdown: that is where it names them (R31).
        let media = try arguments.all(.media).map(AssetFile.medium)
        func side(_ name: SideName) throws -> Asset {
            if let path = arguments[.file(name)] { return try AssetFile.file(path, side: name) }
            guard let text = texts.popFirst() else {
                throw Failure.usage(.missingArgument(name.rawValue.uppercased(), command: "add"))
            }
            return AssetFile.text(text, side: name, extension: media.isEmpty ? "txt" : "md")
        }
        let front = try side(.front)
        let back = try side(.back)
        if !media.isEmpty && arguments.has(.reverse) {
            throw Failure.failed("add --media and --reverse: add the card with its media, then 'leitnerctl reverse ID'")
        }
        if let extra = texts.first { throw Failure.usage(.extraArgument(extra, command: "add")) }
        let level = try arguments[.level].map { try Arguments.level($0, command: "add") }
        let tags = try TagOptions.tags(arguments.all(.tag), command: "add")
        // Refuse a second card with the same front unless asked to (allowDuplicate).
        // The tags go in the same change as the card and its reverse (R28: a reverse card's tags
        // are its own, the card's to begin with): no `Tag` call after the `Add`.
        if arguments.has(.reverse) {
            let reply = try context.box.addWithReverse(front: front, back: back, id: arguments[.id], level: level,
                                                       allowDuplicate: arguments.has(.force), typeAnswer: arguments.has(.typeAnswer),
                                                       tags: tags)
            let card = reply.value.card, reverse = reply.value.reverse
            if context.json { return context.printJSON(reply.json) }
            Console.out("Added '\(card.id)' to \(Views.place(card.level)).")
            if let reverse {
                Console.out("Added '\(reverse.id)', its reverse, to \(Views.place(reverse.level)).")
            }
            if card.level == .new { Console.out(try whenAdmitted(reverse == nil ? 1 : 2, context: context)) }
            return
        }
        var reply = try context.box.add(front: front, back: back, id: arguments[.id], level: level,
                                        allowDuplicate: arguments.has(.force), typeAnswer: arguments.has(.typeAnswer), tags: tags)
        var renamed: [(given: String, kept: String)] = []
        if !media.isEmpty {
            let added = try context.box.addMedia(id: reply.value.id, media: media)
            reply = BoxReply(json: ["card": added.json["card"] ?? .null], value: added.value.card)
            renamed = zip(media.map(\.name), added.value.names).filter { $0 != $1 }.map { ($0, $1) }
        }
        if context.json { return context.printJSON(reply.json) }
        Console.out("Added '\(reply.value.id)' to \(Views.place(reply.value.level))"
                    + (media.isEmpty ? "." : ", with \(media.count) \(media.count == 1 ? "medium" : "media")."))
        for (given, kept) in renamed {
            Console.out("'\(given)' was given twice: the second is '\(kept)'; name it so in the card's text.")
        }
        if reply.value.level == .new { Console.out(try whenAdmitted(1, context: context)) }
    }

    /// `add --cloze TEXT [--extra TEXT] [--id ID] [--level LEVEL] [--tag TAG]…`: a cloze note
    /// and its cards (R30).
    static func addCloze(_ text: String, _ context: Context, _ arguments: ParsedArguments) throws {
        if let extra = arguments.positionals.first { throw Failure.usage(.extraArgument(extra, command: "add")) }
        let level = try arguments[.level].map { try Arguments.level($0, command: "add") }
        let tags = try TagOptions.tags(arguments.all(.tag), command: "add")
        let media = try arguments.all(.media).map(AssetFile.medium)
        // --type-answer: the note's own type-answer file asks for every card of it (R32).
        let reply = try context.box.addCloze(text: text, id: arguments[.id], level: level, extra: arguments[.extra], tags: tags,
                                             typeAnswer: arguments.has(.typeAnswer), media: media)
        if context.json { return context.printJSON(reply.json) }
        for card in reply.value {
            Console.out("Added '\(card.id)', \(card.clozeOf?.description ?? "a cloze card"), to \(Views.place(card.level)).")
        }
        if !media.isEmpty { Console.out("Its note holds \(media.count) \(media.count == 1 ? "medium" : "media").") }
        if reply.value.first?.level == .new { Console.out(try whenAdmitted(reply.value.count, context: context)) }
    }

    /// When the last `count` cards to arrive in `new/` come into level 1 (R23), from the box's
    /// forecast of the admissions day by day (the calendar's): a card added without a level
    /// waits behind every card there before it, and a newcomer would otherwise not know whether
    /// that is tomorrow or in ten days (#35).
    static func whenAdmitted(_ count: Int, context: Context) throws -> String {
        let status = try context.box.status().value
        let waiting = status.counts[.new] ?? 0
        let subject = count == 1 ? "It waits" : "They wait"
        let ahead = max(0, waiting - count)
        let behind = ahead == 0 ? "" : " behind \(ahead) card\(ahead == 1 ? "" : "s")"
        // The n-th card to arrive, counted from 1: the day the admissions reach it.
        var arrived = 0
        var dates: [LogicalDate] = []
        try context.box.calendar(from: status.today, to: status.today.adding(days: Box.maxCalendarDays - 1)) { part in
            for day in part.items where dates.count < count {
                // Today's admissions made already are not ahead of the new cards; those to come are.
                let coming = day.date == status.today
                    ? (status.arrivals?.date == status.today ? status.arrivals?.cards ?? 0 : 0) : day.arrivals ?? 0
                arrived += coming
                while dates.count < count && arrived >= ahead + dates.count + 1 { dates.append(day.date) }
            }
        }
        guard !dates.isEmpty else {
            return "\(subject) in new/\(behind), and none come in on their own (NewPerDay=0): "
                + "'leitnerctl move ID 1' brings one in."
        }
        let days = Array(Set(dates)).sorted().map { date in
            date == status.today ? "when today's test opens"
                : date == status.today.next ? "tomorrow (\(date.weekdayAbbreviation) \(date))" : "on \(date.weekdayAbbreviation) \(date)"
        }
        return "\(subject) in new/\(behind) and come\(count == 1 ? "s" : "") into level 1 " + days.joined(separator: " and ") + "."
    }

    /// `reverse ID [--id REVID] [--level LEVEL]`: a reverse card of a card in the box (R28).
    static func reverse(_ context: Context, _ arguments: ParsedArguments) throws {
        let level = try arguments[.level].map { try Arguments.level($0, command: "reverse") }
        let reply = try context.box.addReverse(of: arguments.positionals[0], reverseID: arguments[.id], level: level)
        if context.json { return context.printJSON(reply.json) }
        Console.out("Added '\(reply.value.id)', the reverse of '\(arguments.positionals[0])', to \(Views.place(reply.value.level)).")
    }

    /// `move ID LEVEL`.
    static func move(_ context: Context, _ arguments: ParsedArguments) throws {
        let level = try Arguments.level(arguments.positionals[1], command: "move")
        // Where the card was, to say so when it is there already: the daemon then changes and
        // logs nothing (R12), and "Moved" would claim otherwise.
        let before = context.json ? nil : try? context.box.show(id: arguments.positionals[0])
        let reply = try context.box.move(id: arguments.positionals[0], to: level)
        if context.json { return context.printJSON(reply.json) }
        let card = reply.value
        if before?.value.level == card.level {
            return Console.out("'\(card.id)' is in \(Views.place(card.level)) already: not moved.")
        }
        Console.out("Moved '\(card.id)' to \(Views.place(card.level)).")
    }

    /// `suspend ID…` (R24).
    static func suspend(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.suspend(ids: arguments.positionals)
        if context.json { return context.printJSON(reply.json) }
        for card in reply.value { Console.out("Suspended '\(card.id)'.") }
    }

    /// `unsuspend ID…` (R24): each back where it was suspended from.
    static func unsuspend(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.unsuspend(ids: arguments.positionals)
        if context.json { return context.printJSON(reply.json) }
        for card in reply.value { Console.out("Unsuspended '\(card.id)': back in \(Views.place(card.level)).") }
    }

    /// `delete ID`, asking first on a terminal unless `--yes`.
    static func delete(_ context: Context, _ arguments: ParsedArguments) throws {
        let id = arguments.positionals[0]
        // An id no card has may be a note's (R30): the daemon deletes the note and its cards.
        var card: Card?
        var isNote = false
        let asks = !arguments.has(.yes) && Console.stdinTerminal.isTerminal
        do { card = try context.box.show(id: id).value } catch let error as VarlinkCallError {
            // A damaged card is deleted too, when nobody is asked (R21).
            if case .noSuchCard? = BoxError(error) { isNote = true } else if asks { throw error }
        }
        if asks {
            Console.status(card.map { "Delete card '\(id)' (\(Views.brief($0.front, limit: 40)))? [y/N] " }
                           ?? "Delete the note '\(id)'\(arguments.has(.keepReverses) ? "" : " and its cards")? [y/N] ")
            let answer = readLine() ?? ""
            guard answer.lowercased().hasPrefix("y") else {
                Console.error("'\(id)' not deleted")
                throw Failure.quiet(ExitStatus.failure)
            }
        }
        let keep = arguments.has(.keepReverses)
        let reply = try context.box.delete(id: id, keepReverses: keep ? true : nil)
        if context.json { return context.printJSON(reply.json) }
        Console.out(isNote ? "Deleted the note '\(id)'." : "Deleted '\(id)'.")
        let linked = reply.value.map { "'\($0)'" }.joined(separator: ", ")
        if linked.isEmpty { return }
        let kind = isNote ? "cards" : "reverse cards"
        if keep {
            Console.out("Kept its \(kind) \(linked): they are dangling now; see leitnerctl doctor.")
        } else {
            Console.out("Deleted its \(kind) \(linked) with it.")
        }
    }

    /// `doctor --resolve ID --keep mine|theirs|FILE`: keeps one side of a card's sync conflict.
    static func resolveConflict(_ context: Context, _ arguments: ParsedArguments) throws {
        guard let id = arguments[.resolve] else {
            throw Failure.usage(.invalidValue("--keep", what: "option", reason: "it goes with --resolve ID", command: "doctor"))
        }
        guard let keep = arguments[.keep], !keep.isEmpty else {
            throw Failure.usage(.invalidValue("--resolve", what: "option", reason: "say which side to keep with --keep mine|theirs|FILE",
                                              command: "doctor"))
        }
        let reply = try context.box.resolveConflict(id: id, keep: keep)
        if context.json { return context.printJSON(reply.json) }
        Console.out("Resolved the conflict of card '\(id)':")
        for path in reply.value.kept { Console.out("  kept '\(path)'") }
        for path in reply.value.removed { Console.out("  removed '\(path)'") }
    }

    /// `undo`: reverts today's last grade (R15).
    static func undo(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.undo()
        if context.json { return context.printJSON(reply.json) }
        Console.out("Undone: '\(reply.value.card.id)' is back in level \(reply.value.card.level.name).")
    }

    /// `grade ID correct|wrong [--time MS]`.
    static func grade(_ context: Context, _ arguments: ParsedArguments) throws {
        let verdict = arguments.positionals[1]
        guard verdict == "correct" || verdict == "wrong" else {
            throw Failure.usage(.invalidValue(verdict, what: "grade", reason: "expected correct or wrong", command: "grade"))
        }
        let answerMs = try arguments[.time].map { time in
            guard let ms = Int(time), ms >= 0 else {
                throw Failure.usage(.invalidValue(time, what: "time", reason: "expected milliseconds", command: "grade"))
            }
            return ms
        }
        let reply = try context.box.grade(id: arguments.positionals[0], correct: verdict == "correct", answerMs: answerMs)
        if context.json { return context.printJSON(reply.json) }
        Console.out("'\(reply.value.card.id)' → \(Views.place(reply.value.card.level)) · "
                    + Views(style: context.style, width: Console.width).test(reply.value.test))
    }
}
