import LeitnerClient
import LeitnerCore
import LeitnerSystem

/// The grammar of leitnerctl: every command, its options and the code that runs it. Help,
/// usage lines and "did you mean" are generated from this table.
enum CommandTable {
    static let program = "leitnerctl"

    static let globals: [OptionSpec] = [
        OptionSpec(.socket, value: "PATH", help: "the daemon's socket (else $LEITNER_SOCKET, Socket=, the default)"),
        OptionSpec(.config, value: "PATH", help: "the configuration file (else ~/.config/leitner/leitner.conf)"),
        OptionSpec(.box, value: "NAME", values: .box, help: "the box NAME (else $LEITNER_BOX, else the default box)"),
        OptionSpec(.json, help: "print the daemon's answer as JSON, for scripts (not review, export)"),
        OptionSpec(.noAutostart, help: "do not start leitnerd when nothing answers (also Autostart=no)"),
        OptionSpec(.help, short: "-h", help: "show help"),
        OptionSpec(.version, help: "show the version"),
    ]

    static let commands: [Command] = [
        Command(name: "status", abstract: "show today's test, the cards per level and this week (the default)",
                run: ReadCommands.status),
        Command(name: "review", abstract: "review today's test in the terminal",
                options: [
                    OptionSpec(.plain, help: "line by line, even on a terminal"),
                    OptionSpec(.type, help: "type every answer before it is shown"),
                    OptionSpec(.images, value: "PROTOCOL", values: imageProtocols,
                               help: "auto, kitty, iterm, sixel, blocks or none (else Images=, else auto)"),
                ] + TagOptions.specs + [
                    OptionSpec(.level, value: "LEVEL", help: "only the queued cards of this level; repeatable"),
                ],
                discussion: """
                Keys: Space or Enter shows the back; y or → correct; n or ← wrong; u undoes the last
                grade; j/k, ↓/↑, PgDn/PgUp, g/G scroll a long card; i shows the card's id; o opens
                an image or file with Viewer=; r plays the sound again; q (or Ctrl-C) quits,
                keeping the progress: the next review goes on. With --type, or on a card holding
                a type-answer file, type the answer first; Enter takes the proposed grade, y or n
                overrides it.
                On the card itself: s suspends it (out of every test); e edits it in $EDITOR and
                shows it again; m asks for a level and moves it there. These are no grades: u does
                not undo them; 'leitnerctl unsuspend ID' or 'leitnerctl move ID LEVEL' does, and
                an edit is undone by editing again.
                Not on a terminal, it reads one answer a line from standard input:
                Enter (or 'f') shows the back, then y/n/u/q; s, e and 'm LEVEL' (m 3) at any time.
                With --tag, --not-tag or --level only the queued cards they select are shown; the
                others stay in the queue, and the test completes only when the whole queue is empty.
                """,
                run: ReviewCommand.run),
        Command(name: "practice", abstract: "practise cards outside the test: answers move nothing",
                options: TagOptions.specs + [
                    OptionSpec(.level, value: "LEVEL", help: "only cards of this level; repeatable"),
                    OptionSpec(.search, value: "PATTERN", help: "only cards whose id, front or back holds PATTERN"),
                    OptionSpec(.wrongDays, value: "N", help: "only cards answered wrong in the last N days"),
                    OptionSpec(.limit, value: "N", help: "at most N cards (default 100, at most 1000)"),
                    OptionSpec(.shuffle, help: "in a random order (else by level, then id)"),
                    OptionSpec(.plain, help: "line by line, even on a terminal"),
                    OptionSpec(.type, help: "type every answer before it is shown, as for review"),
                    OptionSpec(.images, value: "PROTOCOL", values: imageProtocols, help: "as for review"),
                ],
                discussion: """
                The review's screen and keys. An answer moves no card, is no part of today's test,
                and is logged as a practice event; stats counts practice apart. u undoes nothing here.
                """,
                run: ReviewCommand.practice),
        Command(name: "prepare", abstract: "open today's test (for the daily timer)", run: WriteCommands.prepare),
        Command(name: "add", abstract: "add a card", usage: "[FRONT] [BACK]", arguments: 0...2,
                options: [
                    OptionSpec(.frontFile, value: "FILE", help: "the front from a file (image, Markdown, audio, …)"),
                    OptionSpec(.backFile, value: "FILE", help: "the back from a file"),
                    OptionSpec(.id, value: "ID", help: "the card's id (else made from the front)"),
                    OptionSpec(.level, value: "LEVEL", help: "1 to 7, finished, new or suspended (default new: it waits its turn to come into level 1)"),
                    OptionSpec(.force, help: "add even if a card has the same front"),
                    OptionSpec(.tag, value: "TAG", help: "tag the card (repeatable)"),
                    OptionSpec(.reverse, help: "add its reverse card ID.rev too (back as the question), beside it"),
                    OptionSpec(.cloze, value: "TEXT", help: "add a cloze note: 'Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}', one card ID.cN a number"),
                    OptionSpec(.extra, value: "TEXT", help: "with --cloze: text shown under every answer of the note"),
                    OptionSpec(.typeAnswer, help: "its answer is typed in the review (a type-answer file; its reverse's too, or the note's)"),
                    OptionSpec(.media, value: "FILE", help: "a picture or sound the card's (or note's) Markdown shows as ![text](NAME) or [sound:NAME] (repeatable)"),
                ],
                discussion: "FRONT and BACK are text; a side given as a file is left out of the arguments. With --cloze there are none.",
                run: WriteCommands.add),
        Command(name: "import", abstract: "add the cards of a TSV, CSV or Anki file, an Anki package, or a directory", usage: "FILE|DIR",
                arguments: 1...1,
                options: [
                    OptionSpec(.format, value: "FORMAT", values: .oneOf(ImportFormat.allCases.map(\.rawValue)), help: "tsv, csv or anki (else from the file)"),
                    OptionSpec(.level, value: "LEVEL", help: "the level of the cards (default new: they come into level 1 a few a day)"),
                    OptionSpec(.withLevels, help: "keep the levels the source gives (a level column, LEVEL/ID directories)"),
                    OptionSpec(.quiet, help: "no progress bar"),
                    OptionSpec(.tag, value: "TAG", help: "tag every card imported (repeatable)"),
                    OptionSpec(.reverse, help: "give each card added its reverse card ID.rev, beside it"),
                    OptionSpec(.keepProgress, help: "FILE.apkg|.colpkg: a reviewed card's level from its Anki interval"),
                    OptionSpec(.deck, value: "NAME", help: "FILE.apkg|.colpkg: only the cards of deck NAME (and below it)"),
                    OptionSpec(.typeAnswer, help: "each card added asks for its answer typed in the review (a type-answer file)"),
                ],
                discussion: """
                TSV/CSV: two fields a line, front and back, or a header line naming the columns
                id, front, back, level, frontext, backext. Anki: "Notes in Plain Text" with its
                #separator: and #html: lines. A directory: NAME-front.EXT and NAME-back.EXT make card
                NAME, as do ID/front.EXT and ID/back.EXT, and LEVEL/ID/… (what export --dir writes).
                A line that cannot be imported is reported as FILE:LINE: reason; the rest go in.
                Cards whose front (or id) is already in the box are counted as already present,
                so importing the same file again adds nothing.
                An Anki package (.apkg, .colpkg): each Anki card a card (reverse, cloze and typed
                cards too), tags with ':' for '::', each card's deck as a tag deck:NAME, suspended
                cards in suspended, the others in new in Anki's order; a second import adds
                nothing; what cannot be carried is listed (docs/anki-import.md).
                """,
                run: ImportCommand.run),
        Command(name: "export", abstract: "write the text cards as TSV, or copy the cards to a directory",
                usage: "[LEVEL]", arguments: 0...1,
                options: [
                    OptionSpec(.dir, value: "DIR", help: "copy every card, any media, into DIR/ID/ (an empty or new directory)"),
                    OptionSpec(.withLevels, help: "keep the levels: a level column, or DIR/LEVEL/ID/ (a store's layout)"),
                    OptionSpec(.force, help: "with --dir: write into a directory that is not empty"),
                ] + TagOptions.specs,
                discussion: """
                TSV: a header line id, front, back, frontext, backext (and level), the sides with
                \\t, \\n, \\r and \\\\ escapes; import reads it back as it was.
                """,
                run: ExportCommand.run),
        Command(name: "list", abstract: "list the cards, of one level or all", usage: "[LEVEL]", arguments: 0...1,
                options: [
                    OptionSpec(.long, help: "whole sides, not cut to the terminal's width"),
                    OptionSpec(.sort, value: "ORDER", values: .oneOf(ReadCommands.listOrders), help: "level (the default: by level, then id), id, or added"),
                ] + TagOptions.specs,
                discussion: """
                On a terminal: a table LEVEL, ID, FRONT, BACK fitted to its width, '…' where a side
                is cut. Not on a terminal: no header and no colour, the four fields separated by tabs,
                sides whole. Line breaks in a side show as ⏎, tabs as →.
                """,
                run: ReadCommands.list),
        Command(name: "search", abstract: "find the cards whose id, front or back holds a pattern", usage: "PATTERN",
                arguments: 1...1, options: searchOptions, discussion: searchDiscussion, run: SearchCommand.run),
        Command(name: "find", abstract: "the same as search", usage: "PATTERN",
                arguments: 1...1, options: searchOptions, discussion: searchDiscussion, run: SearchCommand.run),
        Command(name: "show", abstract: "show a card", usage: "ID", arguments: 1...1, run: ReadCommands.show),
        Command(name: "edit", abstract: "edit a card's sides in your editor", usage: "ID", arguments: 1...1,
                options: [
                    OptionSpec(.front, help: "edit the front only"),
                    OptionSpec(.back, help: "edit the back only"),
                    OptionSpec(.saveAs, value: "EXT", values: .oneOf(["txt", "md"]), help: "save the edited sides as EXT: md (Markdown) or txt"),
                    OptionSpec(.frontFile, value: "FILE", help: "replace the front with a file (any media), no editor"),
                    OptionSpec(.backFile, value: "FILE", help: "replace the back with a file, no editor"),
                ],
                discussion: """
                The editor is $VISUAL, else $EDITOR, else vi, on temporary copies named front.EXT and
                back.EXT. When it exits with status 0, the sides that changed are replaced at once;
                the card keeps its level, its place in today's test and its history. An empty side,
                or an editor that fails, changes nothing. Saving a copy under another extension
                (front.md for front.txt) changes the side's media type, as --as does.
                """,
                run: EditCommand.run),
        Command(name: "rename", abstract: "give a card a new id, keeping its level and history", usage: "ID NEWID",
                arguments: 2...2,
                discussion: """
                The card's reverse cards are rewritten to name the new id. An ID no card has but a cloze
                note has renames the note: its cards keep their ids and levels, and name the new note.
                """,
                run: EditCommand.rename),
        Command(name: "move", abstract: "move a card to a level", usage: "ID LEVEL", arguments: 2...2,
                run: WriteCommands.move),
        Command(name: "suspend", abstract: "take cards out of every test (into suspended)", usage: "ID...",
                arguments: 1...Int.max,
                discussion: "A suspended card is in no test and never admitted; 'unsuspend' brings it back.",
                run: WriteCommands.suspend),
        Command(name: "unsuspend", abstract: "bring suspended cards back to the level they left", usage: "ID...",
                arguments: 1...Int.max,
                discussion: """
                Each card goes back to the level it was suspended from (the review log says), else to
                level 1. A card that is not suspended is an error, and then no card is moved.
                """,
                run: WriteCommands.unsuspend),
        Command(name: "delete", abstract: "delete a card", usage: "ID", arguments: 1...1,
                options: [OptionSpec(.yes, short: "-y", help: "do not ask"),
                          OptionSpec(.keepReverses, help: "keep the card's reverse cards, or the note's cards (they dangle, and doctor reports them)")],
                discussion: """
                The card's reverse cards (cards whose reverse-of names it) are deleted with it. An ID no
                card has but a cloze note has deletes the note and its cards. A cloze card whose number
                its note still holds is not deleted alone: edit the note, or delete the note.
                """,
                run: WriteCommands.delete),
        Command(name: "reverse", abstract: "add a reverse card of a card: its back as the question", usage: "ID",
                arguments: 1...1,
                options: [
                    OptionSpec(.id, value: "ID", help: "the reverse card's id (default ID.rev)"),
                    OptionSpec(.level, value: "LEVEL", help: "1 to 7, finished, new or suspended (default the card's own)"),
                ],
                discussion: """
                The reverse card is a directory holding the file reverse-of, which names the card; it
                shows the card's sides swapped, so an edit of either shows in both. It has its own
                level, schedule and history, and its own tags, a copy of the card's to begin with. It
                goes beside the card: in new while the card waits there. A reverse card cannot be
                reversed.
                """,
                run: WriteCommands.reverse),
        Command(name: "undo", abstract: "undo today's last grade", run: WriteCommands.undo),
        Command(name: "calendar", abstract: "show past tests and the ones to come", usage: "[FROM [TO]]",
                arguments: 0...2,
                discussion: "Dates are YYYY-MM-DD, 'today', or +N/-N days from today; default: the last 7 days and the next 14.",
                run: ReadCommands.calendar),
        Command(name: "log", abstract: "show the review log",
                options: [
                    OptionSpec(.since, value: "DATE", help: "from this date (YYYY-MM-DD, today, -N days) or time (RFC 3339)"),
                    OptionSpec(.limit, value: "N", help: "the last N entries"),
                    OptionSpec(.all, help: "every entry (on a terminal the default is the last \(ReadCommands.terminalLogEntries))"),
                ],
                discussion: """
                On a terminal, plain log shows the last \(ReadCommands.terminalLogEntries) entries, the latest last; --all,
                --limit N or --since DATE show more. Into a pipe or with --json it writes every entry.
                """,
                run: ReadCommands.log),
        Command(name: "doctor", abstract: "find damaged cards, lone halves and other problems in the store",
                options: [
                    OptionSpec(.resolve, value: "ID", help: "keep one side of the card's sync conflict (with --keep)"),
                    OptionSpec(.keep, value: "SIDE", values: .oneOf([ConflictResolution.mine, .theirs].map(\.description)), help: "mine, theirs, or the file name of one conflict copy"),
                ],
                discussion: """
                Exit status 0 when the store has no problem, 1 when it has some.
                A sync tool's conflict copy of a side (back.sync-conflict-….txt, 'back (conflict_on_….txt',
                'back (… conflicted copy ….txt') or git's conflict markers in a text side are resolved with
                --resolve ID --keep mine (the side as it is), theirs (the copy, or the other branch's
                hunks) or the copy's file name; the losing copies are removed.
                """,
                run: ReadCommands.doctor),
        Command(name: "stats", abstract: "show charts of the box: levels, forecast, heatmap, retention, work, streaks",
                options: [
                    OptionSpec(.days, value: "N", help: "the window of retention, work and hardest cards (default 30, 90)"),
                    OptionSpec(.leeches, value: "N", help: "how many of the hardest cards to list (default 10)"),
                    OptionSpec(.html, value: "FILE", help: "write the report as one HTML page with charts"),
                ] + TagOptions.specs,
                discussion: """
                On a terminal it draws with Unicode blocks and colour, fitted to its width; piped, or with
                NO_COLOR set, with plain characters. Retention is the share of cards answered right the
                first time they were shown in a test; a share of fewer than 20 answers is marked '?'.
                A streak counts the days whose test was completed; a skipped day (nothing was due) does
                not break it, a missed day does. --json prints the daemon's Stats reply.
                """,
                run: StatsCommand.run),
        Command(name: "tag", abstract: "tag a card", usage: "ID TAG...", arguments: 2...1024,
                discussion: "A tag is written as a card id, with ':' between parts for a hierarchy (ja:kana).",
                run: TagCommands.tag),
        Command(name: "untag", abstract: "take tags off a card", usage: "ID TAG...", arguments: 2...1024,
                run: TagCommands.untag),
        Command(name: "tags", abstract: "list every tag with its number of cards",
                options: TagOptions.specs,
                discussion: "TAG and COUNT, tab-separated, by tag; --json prints one JSON object a line.",
                run: TagCommands.tags),
        Command(name: "next", abstract: "show the next card of today's test (for scripts)", run: ReadCommands.next),
        Command(name: "grade", abstract: "grade a card of today's test (for scripts)", usage: "ID correct|wrong",
                arguments: 2...2,
                options: [OptionSpec(.time, value: "MS", help: "the answer time in milliseconds")],
                run: WriteCommands.grade),
        Command(name: "web", abstract: "serve the review and the box to a web browser (leitner-web), in the foreground",
                options: [
                    OptionSpec(.listen, value: "ADDR:PORT", help: "where to listen (else [Web] Listen=, else 127.0.0.1:8470)"),
                    OptionSpec(.pair, help: "print a new pairing link for the leitner-web already running, and exit"),
                    OptionSpec(.devices, help: "list the paired devices, and exit"),
                    OptionSpec(.revoke, value: "NAME", help: "forget the paired device NAME (a lost phone), and exit"),
                    OptionSpec(.ankiKey, help: "print the AnkiConnect door's API key (for Yomitan), and exit"),
                ],
                discussion: """
                Prints a pairing link for each address it is reached at, and its QR code: the browser
                that opens it (once, within 10 minutes) becomes a device, let in until revoked.
                Ctrl-C stops it. See docs/web.md for reaching it from a phone safely.
                """,
                run: WebCommand.run),
        Command(name: "stop", abstract: "stop the daemon, as SIGTERM does",
                discussion: """
                Waits until leitnerd has exited. Under systemd socket activation the next command
                starts it again; 'systemctl --user stop leitnerd.socket leitnerd.service' keeps it stopped.
                """,
                run: DaemonCommands.stop),
        Command(name: "boxes", abstract: "list the boxes: cards, today's test to go, the next due day",
                discussion: """
                The default box and each box NAME with a store in $XDG_DATA_HOME/leitner/boxes/NAME or a
                configuration $XDG_CONFIG_HOME/leitner/NAME.conf; '*' marks the one --box or LEITNER_BOX
                selects. Each box's daemon is started when nothing answers, as for any command; with
                --no-autostart a box whose daemon is not running is listed as not running. Exit status 1
                when a box could not be read. --json prints one JSON object a line.
                """,
                run: BoxesCommand.run),
        Command(name: "completion", abstract: "print the completion of leitnerctl for a shell",
                usage: CompletionShell.allCases.map(\.rawValue).joined(separator: "|"), arguments: 1...1,
                discussion: """
                Written from this table: the commands, their options, the values an option or an
                argument takes (levels, formats, …), files, and the boxes' names; it never asks a
                daemon. make install puts it where each shell looks. By hand: 'source <(leitnerctl
                completion bash)' in ~/.bashrc; 'leitnerctl completion zsh > DIR/_leitnerctl' for a
                DIR in $fpath, before compinit; 'leitnerctl completion fish >
                ~/.config/fish/completions/leitnerctl.fish'.
                """,
                run: { _, arguments in
                    guard let shell = CompletionShell(rawValue: arguments.positionals[0]) else {
                        throw Failure.usage(.invalidValue(arguments.positionals[0], what: "shell", reason: "expected bash, zsh or fish",
                                                          command: "completion"))
                    }
                    Console.write(completion.script(for: shell))
                }),
        Command(name: "help", abstract: "show help, for one command or all", usage: "[COMMAND]", arguments: 0...1,
                run: { _, _ in }),
    ]

    /// `review`'s and `practice`'s `--images`: `auto` or a protocol.
    static let imageProtocols = ArgumentValues.oneOf(["auto"] + ImageProtocol.allCases.map(\.rawValue))

    /// The completion of every shell, from this table (`completion`).
    static var completion: ShellCompletion {
        ShellCompletion(program: program, commands: commands.map(\.spec), globals: globals)
    }

    static let searchOptions = [
        OptionSpec(.regex, short: "-E", help: "PATTERN is a regex, grep -E style (POSIX extended) with \\d \\w \\s \\b and friends"),
        OptionSpec(.front, help: "search the fronts only"),
        OptionSpec(.back, help: "search the backs only"),
        OptionSpec(.level, value: "LEVEL", help: "search the cards of this level only"),
        OptionSpec(.ids, short: "-l", help: "print the ids of the matching cards only, one a line"),
    ] + TagOptions.specs

    static let searchDiscussion = """
        Ignoring case, in the ids and the text and Markdown sides. Prints the level, the id,
        where (id, front, back) and each matching line, the match highlighted on a terminal;
        tab-separated elsewhere. Exit status 1 when nothing matches, as grep; 64 for a
        pattern that is not a regular expression.
        """

    static let exitStatuses = """
    Exit status:
      0   success
      1   the daemon refused the request, or something failed
      64  the command line is wrong (usage)
      69  the daemon cannot be reached (and could not be started)

    Environment: LEITNER_BOX (the box), LEITNER_SOCKET (the default box's socket), NO_COLOR (no colour), XDG_CONFIG_HOME, XDG_RUNTIME_DIR.
    """

    static var parser: CommandLineParser {
        CommandLineParser(commands: commands.map(\.spec), globals: globals, defaultCommand: "status")
    }

    static var help: HelpText {
        HelpText(program: program, summary: "review and manage a Leitner box of cards",
                 commands: commands.map(\.spec), globals: globals, epilogue: exitStatuses)
    }
}
