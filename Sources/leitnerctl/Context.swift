import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// What every command gets: the global options, how to print, and the daemon, reached on
/// first use (and started when nothing answers, unless autostart is off).
final class Context: BoxTransport {
    let settings: ClientSettings
    /// The global options as given: `boxes` resolves every other box's settings with them.
    let globals: ParsedArguments
    /// Print the daemon's answers as JSON.
    let json: Bool
    /// Colour on standard output: only on a terminal, never with `NO_COLOR` set.
    let style: TextStyle
    /// The daemon, reached on first use through `DaemonConnection` (which starts it when
    /// nothing answers), and reached again when it closed the connection unread.
    private lazy var connection = KeptConnection(connect: { [settings] in try DaemonConnection.connect(settings) })

    convenience init(globals: ParsedArguments, command: String) throws {
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        self.init(settings: try ClientSettings.resolve(globals: globals, command: command), globals: globals,
                  json: globals.has(.json), style: TextStyle(enabled: Console.stdoutTerminal.isTerminal && !noColor))
    }

    /// A context for `settings`, printing as `json` and `style` say: `boxes` reaches each box
    /// through one of these.
    init(settings: ClientSettings, globals: ParsedArguments = ParsedArguments(), json: Bool, style: TextStyle) {
        self.settings = settings
        self.globals = globals
        self.json = json
        self.style = style
    }

    /// The daemon's methods as Swift functions (`BoxClient`), called through this context's
    /// connection.
    var box: BoxClient { BoxClient(self) }

    /// Closes the connection, if any: the next call makes a new one. For a connection the daemon
    /// has said it closes (a message over its size limit), so that the next call is not written
    /// into a socket the daemon may not have finished closing.
    func dropConnection() {
        connection.drop()
    }

    /// Prints the items of a streamed reply as they arrive, one line of JSON each (the `--json`
    /// output of `list`, `log`, `calendar`, `doctor`: JSON Lines, docs/leitnerctl.md).
    func printJSONLines(_ items: [JSONValue]) {
        for item in items { Console.out(item.jsonText) }
        Console.flush()
    }

    /// Prints a reply as one line of JSON (the `--json` output).
    func printJSON(_ reply: [String: JSONValue]) {
        Console.out(JSONValue.object(reply).jsonText)
    }

    // MARK: BoxTransport: the kept connection, made or remade as `KeptConnection` says

    /// - Throws: `VarlinkCallError` for the daemon's errors, `Failure.unreachable` when the
    ///   daemon cannot be reached or started.
    func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        try connection.call(method, parameters)
    }

    func stream(_ method: String, _ parameters: [String: JSONValue], _ body: ([String: JSONValue]) throws -> Void) throws {
        try connection.stream(method, parameters, body)
    }
}
