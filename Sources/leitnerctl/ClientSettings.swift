import Glibc
import LeitnerCore

/// leitnerctl's settings: where the daemon is and how to reach it, from the command line,
/// the environment and the configuration file.
struct ClientSettings {
    /// The daemon's socket: `--socket`, then `LEITNER_SOCKET`, then `Socket=`, then the default.
    var socketPath: String
    /// The configuration file given with `--config`, passed on to an autostarted `leitnerd`.
    var configPath: String?
    /// Start `leitnerd` when nothing answers (`[Client] Autostart=`, `--no-autostart`).
    var autostart: Bool
    /// The command that opens an image or file (`[Client] Viewer=`); nil: none.
    var viewer: String?
    /// The command that plays audio (`[Client] Player=`); nil: none.
    var player: String?
}

extension ClientSettings {
    /// The settings for this run, from the global options and the environment.
    /// - Throws: `Failure.failed` for an unreadable configuration.
    static func resolve(globals: ParsedArguments) throws -> ClientSettings {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let socket = globals["--socket"] ?? env("LEITNER_SOCKET") ?? defaultSocketPath()
        let viewer = (env("DISPLAY") != nil || env("WAYLAND_DISPLAY") != nil) ? onPath("xdg-open") : nil
        return ClientSettings(socketPath: socket, configPath: globals["--config"],
                              autostart: !globals.has("--no-autostart"), viewer: viewer, player: nil)
    }

    /// SPEC §5: `$XDG_RUNTIME_DIR/leitner/leitnerd.sock`, else `/tmp/leitner-UID/leitnerd.sock`.
    static func defaultSocketPath() -> String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return runtime + "/leitner/leitnerd.sock"
        }
        return "/tmp/leitner-\(getuid())/leitnerd.sock"
    }

    /// The path of `program` when it is on PATH.
    static func onPath(_ program: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}
