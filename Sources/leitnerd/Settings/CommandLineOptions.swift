import LeitnerCore

/// What the command line of `leitnerd` says (docs/daemon.md). Flags override the configuration file.
struct CommandLineOptions: Equatable {
    /// `--config PATH`: the configuration file, which must then exist.
    var configPath: String?
    /// `--box NAME`: box NAME's configuration (when present), store and socket (R29), as
    /// leitnerctl finds them, so that the template units and autostart name the box alone.
    var box: String?
    /// `--store DIR`.
    var storePath: String?
    /// `--socket PATH`.
    var socketPath: String?
    /// `--varlink=ADDRESS` (the Varlink activator's convention): `unix:PATH[;mode=…]`.
    var varlinkAddress: String?
    /// `--autostarted`: started by leitnerctl, so `ExitIdleAfter=` defaults to
    /// `DaemonSettings.autostartExitIdleAfter` instead of never.
    var autostarted = false
    var showHelp = false
    var showVersion = false

    static let usage = "Usage: leitnerd [--box NAME] [--config PATH] [--store DIR] [--socket PATH] [--varlink=unix:PATH] [--autostarted]"

    static let help = """
        \(usage)

        Serves a Leitner box over Varlink (interface io.leitner.Box) on a Unix socket.

          --box NAME           serve box NAME: $XDG_CONFIG_HOME/leitner/NAME.conf when it
                               exists, $XDG_DATA_HOME/leitner/boxes/NAME, and
                               $XDG_RUNTIME_DIR/leitner/NAME.sock (the flags below override them)
          --config PATH        configuration file (default: $XDG_CONFIG_HOME/leitner/leitner.conf
                               when it exists, else built-in defaults)
          --store DIR          the store directory (overrides [Store] Path=)
          --socket PATH        the socket to listen on (overrides $LEITNER_SOCKET and [Daemon] Socket=)
          --varlink=ADDRESS    the Varlink activator's address, unix:PATH (same as --socket PATH)
          --autostarted        started by leitnerctl: exit after 10 idle minutes unless
                               ExitIdleAfter= says otherwise
          --help               show this help
          --version            show the version

        With systemd socket activation (LISTEN_FDS) the socket is taken from systemd.
        Signals: TERM/INT stop after the requests in flight; HUP reloads the configuration.
        'leitnerctl stop' stops it as TERM does.
        """

    /// Why a command line was refused: rendered as `leitnerd: …` and the usage line, exit 64.
    enum ArgumentError: Error, Equatable, CustomStringConvertible {
        case unknownOption(String)
        case missingValue(String)
        case unexpectedArgument(String)
        case badVarlinkAddress(String)
        case badBoxName(String, reason: String)

        var description: String {
            switch self {
            case .unknownOption(let option): "unknown option '\(option)'"
            case .missingValue(let option): "option '\(option)' needs a value"
            case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
            case .badVarlinkAddress(let address): "unsupported Varlink address '\(address)': expected unix:PATH"
            case .badBoxName(let name, let reason): "invalid box name '\(name)': \(reason)"
            }
        }
    }

    /// Parses the arguments after the program name. `--opt VALUE` and `--opt=VALUE` both work.
    /// - Throws: `ArgumentError`.
    static func parse(_ arguments: [String]) throws(ArgumentError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw .unexpectedArgument(argument) }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ArgumentError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw .missingValue(name) }
                index += 1
                return arguments[index - 1]
            }
            switch name {
            case "--box":
                let name = try value()
                if let reason = BoxName.problem(name) { throw .badBoxName(name, reason: reason) }
                options.box = name
            case "--config": options.configPath = try value()
            case "--store": options.storePath = try value()
            case "--socket": options.socketPath = try value()
            case "--varlink":
                let address = try value()
                options.varlinkAddress = address
                options.socketPath = try socketPath(ofVarlinkAddress: address)
            case "--autostarted" where inlineValue == nil: options.autostarted = true
            case "--help" where inlineValue == nil: options.showHelp = true
            case "--version" where inlineValue == nil: options.showVersion = true
            default: throw .unknownOption(name)
            }
        }
        return options
    }

    /// The socket path of a Varlink address `unix:PATH`, parameters after `;` dropped (the
    /// activator may append `;mode=0600`; the configured `SocketMode=` applies instead).
    static func socketPath(ofVarlinkAddress address: String) throws(ArgumentError) -> String {
        guard address.hasPrefix("unix:") else { throw .badVarlinkAddress(address) }
        let rest = address.dropFirst(5)
        let path = rest.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.hasPrefix("/") else { throw .badVarlinkAddress(address) }
        return String(path)
    }
}
