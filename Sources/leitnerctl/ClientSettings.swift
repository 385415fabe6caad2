import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerSystem

/// leitnerctl's settings: where the daemon is and how to reach it, from the command line,
/// the environment and the configuration file.
struct ClientSettings {
    /// The box (R29): `--box`, else `LEITNER_BOX`; nil: the default box.
    var box: String?
    /// The store the daemon serves for this box (`[Store] Path=`, else the box's default): where
    /// to look whether the box was made, never opened by leitnerctl.
    var storePath: String
    /// The configuration file that was read; nil: none, the embedded defaults.
    var configurationSource: String?
    /// The command may make the box when it was never made (`BoxSelection.creatingCommands`).
    var mayCreateBox: Bool
    /// The daemon's socket: `--socket`, then `LEITNER_SOCKET`, then `Socket=`, then the default.
    var socketPath: String
    /// `/tmp/leitner-UID`: the socket directory used without `XDG_RUNTIME_DIR`, which must be
    /// this user's own.
    var privateSocketDirectory: String
    /// The configuration file given with `--config`, passed on to an autostarted `leitnerd`.
    var configPath: String?
    /// Start `leitnerd` when nothing answers (`[Client] Autostart=`, `--no-autostart`).
    var autostart: Bool
    /// `[Client] Viewer=`, its default looked for on `PATH` only when a file is opened.
    var viewerSetting: ProgramSetting
    /// `[Client] Player=`, its default looked for on `PATH` only when a sound is played.
    var playerSetting: ProgramSetting
    /// How the review draws images (`--images=`, `[Client] Images=`): `auto` or a protocol.
    var images: String
    /// Whether a typed answer's accents are ignored (`[Review] IgnoreAccents=`, R32).
    var ignoreAccents: Bool = false
    /// The sides the review speaks by itself (`[Review] AutoSpeak=`, R33).
    var autoSpeak: Configuration.AutoSpeak = .no
    /// `[Voice] Program=` as the file wrote it, for `doctor` (a program written and not found);
    /// nil: not written (the default), or empty (no voice).
    var voiceProgram: String?
}

extension ClientSettings {
    /// The settings for this run: the box (`--box`, `LEITNER_BOX`), the configuration file
    /// (`--config`, else the box's, else the embedded defaults), `LEITNER_SOCKET` for the
    /// default box, and the global options over them.
    /// - Throws: `Failure.usage` for an invalid box name, `Failure.failed` for a configuration
    ///   that cannot be read or is wrong (`FILE:LINE: message`).
    static func resolve(globals: ParsedArguments, command: String) throws -> ClientSettings {
        try resolve(box: BoxSelection.selected(globals), globals: globals, command: command)
    }

    /// The settings for box `box` (nil: the default one) with the global options `globals`.
    /// - Throws: as `resolve(globals:command:)`.
    static func resolve(box: String?, globals: ParsedArguments, command: String) throws -> ClientSettings {
        let locator = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment(), box: box)
        let configuration: Configuration
        do {
            configuration = try Configuration.load(path: globals[.config], locator: locator)
        } catch {
            throw Failure.failed(error.description)
        }
        // leitnerd refuses a relative socket path; checked here, before autostart would leave
        // the lock and the daemon's log in the working directory and quote the daemon's failure.
        if let path = globals[.socket], !path.hasPrefix("/") {
            throw Failure.usage(.invalidValue(path, what: "socket path", reason: "expected an absolute path", command: nil))
        }
        let socketPath = configuration.resolvedSocketPath(override: globals[.socket])
        guard socketPath.hasPrefix("/") else {
            let source = box == nil && getenv("LEITNER_SOCKET") != nil ? "LEITNER_SOCKET" : "the socket path"
            throw Failure.failed("\(source) '\(socketPath)' is not an absolute path")
        }
        return ClientSettings(box: box, storePath: configuration.storePath, configurationSource: configuration.source,
                              mayCreateBox: BoxSelection.creatingCommands.contains(command),
                              socketPath: socketPath,
                              privateSocketDirectory: configuration.privateSocketDirectory,
                              configPath: globals[.config],
                              autostart: configuration.autostart && !globals.has(.noAutostart),
                              viewerSetting: configuration.viewerSetting, playerSetting: configuration.playerSetting,
                              images: configuration.images, ignoreAccents: configuration.ignoreAccents,
                              autoSpeak: configuration.autoSpeak,
                              voiceProgram: configuration.voiceSetting.isConfigured ? configuration.voiceProgram : nil)
    }

    /// The command that opens an image or file (`[Client] Viewer=`, else `xdg-open` on `PATH`);
    /// nil: none.
    var viewer: String? { viewerSetting.command }
    /// The command that plays audio (`[Client] Player=`, else the first player on `PATH`); nil:
    /// none.
    var player: String? { playerSetting.command }
}
