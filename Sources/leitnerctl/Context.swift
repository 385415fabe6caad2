import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// What every command gets: the global options, how to print, and the daemon, reached on
/// first use (and started when nothing answers, unless autostart is off).
final class Context {
    let settings: ClientSettings
    /// Print the daemon's answers as JSON.
    let json: Bool
    /// Colour on standard output: only on a terminal, never with `NO_COLOR` set.
    let style: TextStyle
    private var connection: VarlinkClient?

    init(globals: ParsedArguments, command: String) throws {
        settings = try ClientSettings.resolve(globals: globals)
        json = globals.has("--json")
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        style = TextStyle(enabled: Console.stdoutTerminal.isTerminal && !noColor)
    }

    /// Calls `io.leitner.Box.METHOD` and returns the reply's parameters.
    /// - Throws: `VarlinkCallError` for the daemon's errors, `Failure.unreachable` when the
    ///   daemon cannot be reached or started.
    func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws -> [String: JSONValue] {
        try DaemonConnection.call(&connection, settings, "io.leitner.Box." + method, parameters)
    }

    /// Calls `io.leitner.Box.METHOD` and decodes its reply with `decode` (the decoders of
    /// BoxTypes+JSON.swift).
    /// - Throws: as `call`, and `Failure.failed` naming the member that does not decode (exit
    ///   status 1: the daemon answered, in a shape this leitnerctl does not know).
    func call<Value>(_ method: String, _ parameters: [String: JSONValue] = [:],
                     as decode: (JSONFields) throws(JSONFieldError) -> Value) throws -> BoxReply<Value> {
        let json = try call(method, parameters)
        return BoxReply(json: json, value: try decoded(method) { () throws(JSONFieldError) in try decode(JSONFields(members: json)) })
    }

    /// Calls `io.leitner.Box.METHOD`, whose reply grows with the box, with `more`, and hands the
    /// items of its array `member`, decoded one by one with `decode`, to `body` as each reply
    /// arrives, beside the items as they came (for `--json`).
    /// - Throws: as `call(_:_:as:)`, and what `body` throws.
    func stream<Item>(_ method: String, _ parameters: [String: JSONValue] = [:], member: String,
                      as decode: (JSONValue, String) throws(JSONFieldError) -> Item,
                      _ body: ([Item], [JSONValue]) throws -> Void) throws {
        try DaemonConnection.stream(&connection, settings, "io.leitner.Box." + method, parameters) { reply in
            let items = try decoded(method) { () throws(JSONFieldError) in
                try JSONFields(members: reply).objects(member, decode)
            }
            try body(items, reply[member]?.arrayValue ?? [])
        }
    }

    /// What `decode` makes of a reply to METHOD, or the error that says which member is wrong.
    private func decoded<Value>(_ method: String, _ decode: () throws(JSONFieldError) -> Value) throws -> Value {
        do {
            return try decode()
        } catch {
            throw Failure.failed("the daemon's answer to \(method) cannot be read: \(error)")
        }
    }

    /// Closes the connection, if any: the next call makes a new one. For a connection the daemon
    /// has said it closes (a message over its size limit), so that the next call is not written
    /// into a socket the daemon may not have finished closing.
    func dropConnection() {
        connection = nil // its socket closes with it
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
}
