import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `leitnerctl boxes`: every box with its cards, its test's remaining cards and its next due
/// day (R29) — the deck list.
///
/// Each box is asked through its own daemon, autostarted as any command would (its own
/// `Autostart=`, `--no-autostart`): a listing that said "not running" would send a person to
/// start every box by hand to learn what is due, and an autostarted daemon exits by itself after
/// ten idle minutes (`ExitIdleAfter=`). With autostart off, a box whose daemon is not running is
/// listed as such. A box is never made here: only boxes with a store or a configuration file are
/// listed, and the default box only when it has either or its socket answers.
enum BoxesCommand {
    /// How far ahead the next due day is looked for: a year, far beyond any gap of the standard
    /// cycle (level 1 is due at least every other day while it holds cards).
    static let horizonDays = 366

    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let listings = try gather(context)
        if context.json {
            context.printJSONLines(listings.map(\.json))
        } else if listings.isEmpty {
            Console.out("No boxes yet: 'leitnerctl add …' makes the default box, 'leitnerctl --box NAME add …' box NAME.")
        } else {
            print(listings, context: context)
        }
        let failed = listings.filter { if case .failed = $0.outcome { true } else { false } }
        if !context.json {
            for listing in failed {
                if case .failed(let message) = listing.outcome { Console.error("box \(listing.title): \(message)") }
            }
        }
        if !failed.isEmpty { throw Failure.quiet(ExitStatus.failure) }
    }

    /// The default box (when it exists or answers), then every named box in byte order, each
    /// asked in turn.
    static func gather(_ context: Context) throws -> [BoxListing] {
        let locator = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment())
        var listings: [BoxListing] = []
        for name in [nil] + locator.boxNames().map(Optional.some) {
            let selected = name == context.settings.box
            // The global --socket and --config speak of the selected box; every other box is
            // found by its own name.
            var globals = context.globals
            if !selected {
                globals.values["--socket"] = nil
                globals.values["--config"] = nil
            }
            let settings: ClientSettings
            do {
                settings = try ClientSettings.resolve(box: name, globals: globals, command: "boxes")
            } catch {
                listings.append(BoxListing(name: name, selected: selected, storePath: nil, socketPath: nil,
                                           outcome: .failed(message(error))))
                continue
            }
            if name == nil, !defaultBoxIsMade(settings), !answers(settings.socketPath) { continue }
            listings.append(BoxListing(name: name, selected: selected, storePath: settings.storePath,
                                       socketPath: settings.socketPath, outcome: read(settings, style: context.style)))
        }
        return listings
    }

    /// What the box's daemon says: its status and next due day.
    static func read(_ settings: ClientSettings, style: TextStyle) -> BoxListing.Outcome {
        if !settings.autostart {
            do {
                _ = try VarlinkClient(socketPath: settings.socketPath)
            } catch .notListening {
                return .notRunning
            } catch {
                return .failed(error.description)
            }
        }
        let box = Context(settings: settings, json: false, style: style).box
        do {
            let status = try box.status().value
            return .serving(status, nextDue: try nextDue(box, status))
        } catch {
            return .failed(message(error))
        }
    }

    /// Today when today's test has cards to go, else the first later day whose levels hold
    /// cards (the `Calendar`'s forecast) or that new cards arrive on (R23: they are in that
    /// day's test); nil when none does within `horizonDays`.
    static func nextDue(_ box: BoxClient, _ status: BoxStatus) throws -> LogicalDate? {
        if status.test.state == .open && status.test.remaining > 0 { return status.today }
        var found: LogicalDate?
        try box.calendar(from: status.today.next, to: status.today.adding(days: horizonDays)) { part in
            if found == nil { found = part.items.first { $0.state == .upcoming && $0.cards > 0 }?.date }
        }
        guard let arrival = status.arrivals?.date, arrival >= status.today else { return found }
        return found.map { min($0, arrival) } ?? arrival
    }

    /// The table on a terminal; elsewhere the same fields separated by tabs, without header,
    /// mark or colour (as `list`).
    static func print(_ listings: [BoxListing], context: Context) {
        let views = ReadCommands.views(context)
        let style = context.style
        guard Console.stdoutTerminal.isTerminal else {
            for listing in listings {
                let cells = cells(listing)
                Console.out([listing.title, cells.cards, cells.remaining, cells.next].joined(separator: "\t"))
            }
            return
        }
        let width = max(3, listings.map { DisplayWidth.of($0.title) }.max() ?? 0)
        Console.out(style.apply(style.dim, "  " + views.pad("BOX", width) + "  CARDS  TO GO  NEXT TEST"))
        for listing in listings {
            let cells = cells(listing)
            let mark = listing.selected ? "* " : "  "
            var next = cells.next
            if case .serving(let status, let due?) = listing.outcome {
                next = due == status.today ? style.apply(style.yellow, "today")
                    : due == status.today.next ? "tomorrow" : "\(due.weekdayAbbreviation) \(due)"
            } else if case .failed = listing.outcome {
                next = style.apply(style.red, next)
            }
            Console.out(mark + views.pad(listing.title, width) + "  " + views.pad(cells.cards, 5, right: true)
                        + "  " + views.pad(cells.remaining, 5, right: true) + "  " + next)
        }
    }

    /// The number of cards, the cards to go today and the next due day, as text: `-` for what
    /// is not known, and a word for why.
    static func cells(_ listing: BoxListing) -> (cards: String, remaining: String, next: String) {
        switch listing.outcome {
        case .notRunning: ("-", "-", "not running")
        case .failed: ("-", "-", "error")
        case .serving(let status, let due): (String(listing.cards ?? 0), String(status.test.remaining),
                                             due.map(\.description) ?? "none")
        }
    }

    /// True when the default box has a configuration file or a store: its directory holds
    /// something besides `boxes/`, which the other boxes' stores alone would have made.
    static func defaultBoxIsMade(_ settings: ClientSettings) -> Bool {
        if settings.configurationSource != nil { return true }
        guard let directory = try? FileDescriptor.openDirectory(settings.storePath) else { return false }
        defer { directory.close() }
        return ((try? FileSystem.list(directory)) ?? []).contains { $0.name != "boxes" }
    }

    /// True when something accepts a connection on `path` (a daemon, or systemd's socket).
    static func answers(_ path: String) -> Bool {
        (try? VarlinkClient(socketPath: path)) != nil
    }

    /// One line for an error, as `main` would print it.
    static func message(_ error: any Error) -> String {
        switch error {
        case Failure.unreachable(let text), Failure.failed(let text): text
        case Failure.usage(let usage): usage.message
        default: DaemonErrors.message(for: error)
        }
    }
}
