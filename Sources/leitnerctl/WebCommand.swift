import Glibc
import LeitnerClient
import LeitnerSystem

/// `web [--listen ADDR:PORT] [--pair | --devices | --revoke NAME | --anki-key]`: leitner-web in the
/// foreground, on this box's (`--box`, `LEITNER_BOX`) daemon (started first when nothing answers,
/// as for any command). leitnerctl becomes leitner-web (`exec`), whose first line is a pairing
/// link (docs/web.md). With `--pair`, `--devices`, `--revoke` or `--anki-key` leitner-web answers
/// and exits.
enum WebCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        // A mistyped address is this command line's error, said before a daemon is started for
        // nothing and with this command's usage, not leitner-web's.
        if let listen = arguments[.listen] {
            let parsed = Socket.InternetAddress.parse(listen)
            if parsed.address == nil {
                throw Failure.usage(.invalidValue(listen, what: "--listen address", reason: parsed.reason, command: "web"))
            }
        }
        let once: [String] = arguments.has(.pair) ? ["--pair"] : arguments.has(.devices) ? ["--devices"]
            : arguments.has(.ankiKey) ? ["--anki-key"] : arguments[.revoke].map { ["--revoke", $0] } ?? []
        if once.isEmpty {
            // Reach (or start) the daemon now, so that the first page does not find it down.
            _ = try context.box.status()
            context.dropConnection()
        }
        guard let program = findWeb() else {
            throw Failure.failed("no leitner-web was found next to leitnerctl or on PATH")
        }
        var argv = [program, "--socket", context.settings.socketPath] + (once.isEmpty ? ["--print-url"] : once)
        // The box (`--box`, `LEITNER_BOX`): leitner-web reads its configuration and keeps its
        // own devices, and names it in the pages. The socket above is already the box's.
        if let box = context.settings.box { argv += ["--box", box] }
        if let config = context.settings.configPath { argv += ["--config", config] }
        if let listen = arguments[.listen] { argv += ["--listen", listen] }
        Console.flush()
        let failure = ProgramImage.replace(with: program, arguments: argv)
        throw Failure.failed("cannot run '\(program)': \(failure)")
    }

    /// `leitner-web` next to this program (a build directory, an install prefix), else on PATH.
    static func findWeb() -> String? {
        if let me = try? FileSystem.realPath("/proc/self/exe") {
            let sibling = FileSystem.parent(of: me) + "/leitner-web"
            if access(sibling, X_OK) == 0 { return sibling }
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/leitner-web"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
