import LeitnerCore
import LeitnerSystem

/// The command line of leitner-web (leitner-web(1)). Flags override the configuration file.
struct WebOptions: Equatable {
    /// `--box NAME`: box NAME's configuration, socket and token, as leitnerd's `--box` (R29).
    var box: String?
    var configPath: String?
    /// `--socket PATH`: the daemon's socket.
    var socketPath: String?
    /// `--listen ADDR:PORT`: over `[Web] Listen=`.
    var listen: Socket.InternetAddress?
    /// `--print-url`: print the pairing links and their QR code on standard output (the first
    /// line a link), for `leitnerctl web`. Never under systemd, where standard output is the journal.
    var printURL = false
    /// `--pair`: print a new pairing link for the server already running, and exit.
    var pair = false
    /// `--devices`: list the paired devices, and exit.
    var listDevices = false
    /// `--revoke NAME`: forget a paired device, and exit.
    var revoke: String?
    /// `--anki-key`: print the AnkiConnect door's API key (made the first time), and exit.
    var ankiKey = false
    var showHelp = false

    static let usage = "Usage: leitner-web [--box NAME] [--config PATH] [--socket PATH] [--listen ADDR:PORT] [--print-url | --pair | --devices | --revoke NAME | --anki-key]"

    static let help = """
        \(usage)

        Serves the Leitner box's review, cards and statistics to a web browser, as a client of
        leitnerd. Only a browser paired with a link it printed (a device) gets in.

          --box NAME           serve box NAME: its configuration ($XDG_CONFIG_HOME/leitner/NAME.conf
                               when it exists), its socket and its own token; its name in the
                               pages' titles
          --config PATH        configuration file (default: $XDG_CONFIG_HOME/leitner/leitner.conf)
          --socket PATH        the daemon's socket (overrides $LEITNER_SOCKET and [Daemon] Socket=)
          --listen ADDR:PORT   where to listen (overrides [Web] Listen=, default 127.0.0.1:8470;
                               port 0 picks a free one)
          --print-url          print a pairing link for each address and its QR code (the
                               first line is a link); it opens once, within 10 minutes
          --pair               print a new pairing link for the leitner-web already running
                               (started by systemd, say), and exit
          --devices            list the paired devices (name, paired, last seen), and exit
          --revoke NAME        forget the device NAME: its browser is let out, and exit
          --anki-key           print the AnkiConnect door's API key, for Yomitan's "API key"
                               field ([Web] AnkiConnect=, made the first time), and exit
          --help               show this help

        The devices are kept in $XDG_STATE_HOME/leitner/web-devices (mode 0600); box NAME's in
        $XDG_STATE_HOME/leitner/NAME.web-devices; the AnkiConnect key in anki-connect-key beside them.
        With systemd socket activation (LISTEN_FDS) the listening socket is taken from systemd.
        Signals: TERM/INT stop. See leitner-web(1) and docs/web.md.
        """

    struct ArgumentError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws(ArgumentError) -> WebOptions {
        var options = WebOptions()
        var index = 0
        func value(_ option: String, _ inline: String?) throws(ArgumentError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw ArgumentError(description: "option '\(option)' needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            let equals = argument.hasPrefix("--") ? argument.firstIndex(of: "=") : nil
            let name = equals.map { String(argument[..<$0]) } ?? argument
            let inline = equals.map { String(argument[argument.index(after: $0)...]) }
            switch name {
            case "--box":
                let box = try value(name, inline)
                if let reason = BoxName.problem(box) { throw ArgumentError(description: "invalid box name '\(box)': \(reason)") }
                options.box = box
            case "--config": options.configPath = try value(name, inline)
            case "--socket": options.socketPath = try value(name, inline)
            case "--listen":
                let text = try value(name, inline)
                let parsed = Socket.InternetAddress.parse(text)
                guard let address = parsed.address else {
                    throw ArgumentError(description: "invalid --listen '\(text)': \(parsed.reason)")
                }
                options.listen = address
            case "--print-url" where inline == nil: options.printURL = true
            case "--pair" where inline == nil: options.pair = true
            case "--devices" where inline == nil: options.listDevices = true
            case "--revoke": options.revoke = try value(name, inline)
            case "--anki-key" where inline == nil: options.ankiKey = true
            case "--help", "-h": options.showHelp = true
            default:
                throw ArgumentError(description: argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
            }
            index += 1
        }
        return options
    }
}
