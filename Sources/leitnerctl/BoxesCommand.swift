import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `leitnerctl boxes`: every box with its cards, how far its test is and its next test (R29) —
/// the deck list, in the words of `status` and the review (TestWords).
///
/// Each box is asked through its own daemon, autostarted as any command would (its own
/// `Autostart=`, `--no-autostart`): a listing that said "not running" would send a person to
/// start every box by hand to learn what is due, and an autostarted daemon exits by itself after
/// ten idle minutes (`ExitIdleAfter=`). With autostart off, a box whose daemon is not running is
/// listed as such. A box is never made here: only boxes with a store or a configuration file are
/// listed, and the default box only when it has either or its socket answers.
enum BoxesCommand {
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

    /// What the box's daemon says: its status, which holds its next test.
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
            return .serving(try box.status().value)
        } catch {
            return .failed(message(error))
        }
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
        // Today's progress and the next test as `status` and the review's end say them.
        var progress: [String] = [], next: [String] = []
        for listing in listings {
            let cells = cells(listing)
            switch listing.outcome {
            case .serving(let status):
                progress.append(TestWords.progress(status))
                next.append(status.next.map { TestWords.next($0, today: status.today) } ?? "none")
            case .failed:
                progress.append(cells.remaining)
                next.append(style.apply(style.red, cells.next))
            case .notRunning:
                progress.append(cells.remaining)
                next.append(cells.next)
            }
        }
        let progressWidth = max(12, progress.map { DisplayWidth.of($0) }.max() ?? 0)
        Console.out(style.apply(style.dim, "  " + views.pad("BOX", width) + "  CARDS  " + views.pad("TODAY'S TEST", progressWidth)
                                + "  NEXT TEST"))
        for (index, listing) in listings.enumerated() {
            let mark = listing.selected ? "* " : "  "
            Console.out(mark + views.pad(listing.title, width) + "  " + views.pad(cells(listing).cards, 5, right: true)
                        + "  " + views.pad(progress[index], progressWidth) + "  " + next[index])
        }
    }

    /// The number of cards, the cards to go today and the next due day, as text: `-` for what
    /// is not known, and a word for why.
    static func cells(_ listing: BoxListing) -> (cards: String, remaining: String, next: String) {
        switch listing.outcome {
        case .notRunning: ("-", "-", "not running")
        case .failed: ("-", "-", "error")
        case .serving(let status): (String(listing.cards ?? 0), String(status.test.remaining),
                                    status.next.map(\.date.description) ?? "none")
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
