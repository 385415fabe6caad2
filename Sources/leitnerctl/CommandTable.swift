import LeitnerClient
import LeitnerSystem

/// The grammar of leitnerctl: every command, its options and the code that runs it. Help,
/// usage lines and "did you mean" are generated from this table.
enum CommandTable {
    static let program = "leitnerctl"

    static let globals: [OptionSpec] = [
        OptionSpec("--socket", value: "PATH", help: "the daemon's socket (else $LEITNER_SOCKET, Socket=, the default)"),
        OptionSpec("--config", value: "PATH", help: "the configuration file (else ~/.config/leitner/leitner.conf)"),
        OptionSpec("--json", help: "print the daemon's answer as JSON (read commands)"),
        OptionSpec("--no-autostart", help: "do not start leitnerd when nothing answers (also Autostart=no)"),
        OptionSpec("--help", short: "-h", help: "show help"),
        OptionSpec("--version", help: "show the version"),
    ]

    static let commands: [Command] = [
        Command(name: "status", abstract: "show today's test, the cards per level and this week (the default)",
                run: ReadCommands.status),
        Command(name: "review", abstract: "review today's test in the terminal",
                options: [
                    OptionSpec("--plain", help: "line by line, even on a terminal"),
                    OptionSpec("--images", value: "PROTOCOL",
                               help: "auto, kitty, iterm, sixel, blocks or none (else Images=, else auto)"),
                ],
                discussion: """
                Keys: Space or Enter shows the back; y or → correct; n or ← wrong; u undoes the last
                grade; j/k, ↓/↑, PgDn/PgUp, g/G scroll a long card; i shows the card's id; o opens
                an image or file with Viewer=; r plays the sound again; q (or Ctrl-C) quits,
                keeping the progress: the next review goes on.
                Not on a terminal, it reads one answer a line from standard input:
                Enter (or 'f') shows the back, then y/n/u/q.
                """,
                run: ReviewCommand.run),
        Command(name: "prepare", abstract: "open today's test (for the daily timer)", run: WriteCommands.prepare),
        Command(name: "add", abstract: "add a card", usage: "[FRONT] [BACK]", arguments: 0...2,
                options: [
                    OptionSpec("--front-file", value: "FILE", help: "the front from a file (image, Markdown, audio, …)"),
                    OptionSpec("--back-file", value: "FILE", help: "the back from a file"),
                    OptionSpec("--id", value: "ID", help: "the card's id (else made from the front)"),
                    OptionSpec("--level", value: "LEVEL", help: "1 to 7 or finished (default 1)"),
                    OptionSpec("--force", help: "add even if a card has the same front"),
                ],
                discussion: "FRONT and BACK are text; a side given as a file is left out of the arguments.",
                run: WriteCommands.add),
        Command(name: "import", abstract: "add the cards of a TSV, CSV or Anki file, or of a directory", usage: "FILE|DIR",
                arguments: 1...1,
                options: [
                    OptionSpec("--format", value: "FORMAT", help: "tsv, csv or anki (else from the file)"),
                    OptionSpec("--level", value: "LEVEL", help: "the level of cards the file gives none (default 1)"),
                    OptionSpec("--quiet", help: "no progress bar"),
                ],
                discussion: """
                TSV/CSV: two fields a line, front and back, or a header line naming the columns
                id, front, back, level. Anki: "Notes in Plain Text" with its #separator: and #html:
                lines. A directory: NAME-front.EXT and NAME-back.EXT make card NAME.
                A line that cannot be imported is reported as FILE:LINE: reason; the rest go in.
                Cards whose front (or id) is already in the box are counted as already present,
                so importing the same file again adds nothing.
                """,
                run: ImportCommand.run),
        Command(name: "export", abstract: "write the text cards as TSV, or copy the cards to a directory",
                usage: "[LEVEL]", arguments: 0...1,
                options: [OptionSpec("--dir", value: "DIR", help: "copy every card into DIR/LEVEL/ID/ (a store's layout)")],
                run: ExportCommand.run),
        Command(name: "list", abstract: "list the cards, of one level or all", usage: "[LEVEL]", arguments: 0...1,
                run: ReadCommands.list),
        Command(name: "show", abstract: "show a card", usage: "ID", arguments: 1...1, run: ReadCommands.show),
        Command(name: "move", abstract: "move a card to a level", usage: "ID LEVEL", arguments: 2...2,
                run: WriteCommands.move),
        Command(name: "delete", abstract: "delete a card", usage: "ID", arguments: 1...1,
                options: [OptionSpec("--yes", short: "-y", help: "do not ask")], run: WriteCommands.delete),
        Command(name: "undo", abstract: "undo today's last grade", run: WriteCommands.undo),
        Command(name: "calendar", abstract: "show past tests and the ones to come", usage: "[FROM [TO]]",
                arguments: 0...2,
                discussion: "Dates are YYYY-MM-DD, 'today', or +N/-N days from today; default: the last 7 days and the next 14.",
                run: ReadCommands.calendar),
        Command(name: "log", abstract: "show the review log",
                options: [
                    OptionSpec("--since", value: "DATE", help: "from this date (YYYY-MM-DD) or time (RFC 3339)"),
                    OptionSpec("--limit", value: "N", help: "the last N entries"),
                ],
                run: ReadCommands.log),
        Command(name: "doctor", abstract: "find damaged cards, lone halves and other problems in the store",
                discussion: "Exit status 0 when the store has no problem, 1 when it has some.",
                run: ReadCommands.doctor),
        Command(name: "next", abstract: "show the next card of today's test (for scripts)", run: ReadCommands.next),
        Command(name: "grade", abstract: "grade a card of today's test (for scripts)", usage: "ID correct|wrong",
                arguments: 2...2,
                options: [OptionSpec("--time", value: "MS", help: "the answer time in milliseconds")],
                run: WriteCommands.grade),
        Command(name: "stop", abstract: "stop the daemon, as SIGTERM does",
                discussion: """
                Waits until leitnerd has exited. Under systemd socket activation the next command
                starts it again; 'systemctl --user stop leitnerd.socket leitnerd.service' keeps it stopped.
                """,
                run: DaemonCommands.stop),
        Command(name: "help", abstract: "show help, for one command or all", usage: "[COMMAND]", arguments: 0...1,
                run: { _, _ in }),
    ]

    static let exitStatuses = """
    Exit status:
      0   success
      1   the daemon refused the request, or something failed
      64  the command line is wrong (usage)
      69  the daemon cannot be reached (and could not be started)

    Environment: LEITNER_SOCKET (the socket), NO_COLOR (no colour), XDG_CONFIG_HOME, XDG_RUNTIME_DIR.
    """

    static var parser: CommandLineParser {
        CommandLineParser(commands: commands.map(\.spec), globals: globals, defaultCommand: "status")
    }

    static var help: HelpText {
        HelpText(program: program, summary: "review and manage a Leitner box of cards",
                 commands: commands.map(\.spec), globals: globals, epilogue: exitStatuses)
    }
}
