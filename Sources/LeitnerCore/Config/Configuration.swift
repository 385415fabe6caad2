import LeitnerSystem
/// The settings of `leitnerd` and `leitnerctl`: every key of `leitner.conf` as a typed value,
/// with the embedded defaults for the keys a file does not set (`docs/configuration.md`).
public struct Configuration: Sendable, Equatable {
    /// The file the values came from; nil when no file was read (embedded defaults).
    public var source: String?

    // [Store]
    /// The store directory: `Path=` with `~/` expanded, else `$XDG_DATA_HOME/leitner`.
    public var storePath: String

    // [Daemon]
    /// The socket: `$LEITNER_SOCKET`, else `Socket=`, else
    /// `$XDG_RUNTIME_DIR/leitner/leitnerd.sock` or `/tmp/leitner-UID/leitnerd.sock`.
    public var socketPath: String
    /// The directory that must be private to the user when the socket goes in it: the
    /// `/tmp/leitner-UID` fallback, created 0700 and refused when another user owns it.
    public var privateSocketDirectory: String
    /// The mode of the socket file (`SocketMode=`, default `0600`).
    public var socketMode: UInt32 = 0o600
    /// A group whose members may connect besides the daemon's user and root (`AllowGroup=`).
    public var allowGroup: GroupSelector?
    /// The largest message accepted, in bytes (`MaxMessageSize=`, default 16 MiB).
    public var maxMessageSize: Int = 16 << 20
    /// The most connections served at once (`MaxConnections=`, default 64).
    public var maxConnections: Int = 64
    /// The regular-expression engine's steps one `Search` may take (`SearchScan`).
    public var searchSteps: Int = SearchScan.defaultBudget
    /// The most inotify watches the daemon holds (`WatchLimit=`); nil for three quarters of the
    /// kernel's `fs.inotify.max_user_watches` (`BoxOptions.watchLimit`).
    public var watchLimit: Int?
    /// How long a half-received message may sit idle before its connection is closed
    /// (`IdleTimeout=`, default 30 s).
    public var idleTimeout: Duration = .seconds(30)
    /// How long the daemon may sit with no connection before it exits (`ExitIdleAfter=`);
    /// `.zero`: never; nil: not set, so the daemon's default applies (10 minutes when leitnerctl
    /// started it, never otherwise).
    public var exitIdleAfter: Duration?

    // [Schedule]
    /// Minutes after local midnight at which the learning day starts (`DayStartsAt=`, 04:00).
    public var dayStartsAt: Int = 4 * 60
    /// Where a wrongly answered card goes (`OnFail=`, R9).
    public var onFail: OnFailPolicy = .first
    /// The cycle table (`Cycle=`, R3).
    public var cycle: CycleTable = .standard
    /// How many new cards are admitted into level 1 a logical date (`NewPerDay=`, R23, default
    /// 20); nil: `all`, no pacing: new cards enter level 1 at once (R1).
    public var newPerDay: Int? = 20
    /// Wrong answers since a card last entered `1`–`7` from `new/` or `suspended/` that make it
    /// a leech (`LeechAfter=`, R24, default 8); 0: no card is a leech.
    public var leechAfter: Int = 8
    /// Whether the wrong answer that makes a leech also suspends it (`SuspendLeeches=`, R24).
    public var suspendLeeches: Bool = false

    // [Hooks]
    /// The shell command run when a prepared test has cards (`TestReady=`); nil: none.
    public var testReady: String?

    // [Sync]
    /// This machine's device id (`Device=`); nil: the one kept in
    /// `ConfigurationLocator.deviceFilePath`, made on the first start (docs/sync.md).
    public var device: String?
    /// How long the store must be quiet before a card a sync left in two levels is settled
    /// (`SettleAfter=`, default 3 minutes: longer than Syncthing's one-minute delay before it
    /// deletes a moved folder's old copy).
    public var settleAfter: Duration = .seconds(180)

    // [Client]
    /// Whether `leitnerctl` starts `leitnerd` when nothing answers (`Autostart=`, default yes).
    public var autostart: Bool = true
    /// `Viewer=` and the `PATH` to look for its default on, when asked.
    public var viewerSetting: ProgramSetting
    /// `Player=` and the `PATH` to look for its default on, when asked.
    public var playerSetting: ProgramSetting
    /// The command that opens a file that cannot be shown inline (`Viewer=`, default `xdg-open`
    /// when it is on `PATH`); nil: none. Reading it searches `PATH` when nothing was set.
    public var viewer: String? {
        get { viewerSetting.command }
        set { viewerSetting.command = newValue }
    }
    /// The command that plays audio (`Player=`, default the first of `audioPlayers` on
    /// `PATH`); nil: none. Reading it searches `PATH` when nothing was set.
    public var player: String? {
        get { playerSetting.command }
        set { playerSetting.command = newValue }
    }
    /// How the review draws images (`Images=`): `auto` (ask the terminal) or one of
    /// `imageProtocols`.
    public var images: String = "auto"
    /// The players tried for `Player=` when it is not set, in order: PipeWire's, PulseAudio's,
    /// ALSA's, then the two that play any format (`ffplay` without its window).
    public static let audioPlayers: [ProgramSetting.Candidate] = [
        .init(program: "pw-play", command: "pw-play"), .init(program: "paplay", command: "paplay"),
        .init(program: "aplay", command: "aplay"),
        .init(program: "ffplay", command: "ffplay -nodisp -autoexit -loglevel quiet"),
        .init(program: "mpv", command: "mpv --no-video --really-quiet"),
    ]
    /// The values of `Images=` besides `auto`: the protocols leitnerctl draws images with.
    public static let imageProtocols = ["kitty", "iterm", "sixel", "blocks", "none"]

    // [Review]
    /// Whether a typed answer's accents are ignored (`IgnoreAccents=`, default no; R32).
    public var ignoreAccents: Bool = false
    /// Which sides the review speaks by itself (`AutoSpeak=`, default no; R33).
    public var autoSpeak: AutoSpeak = .no

    /// The sides the review speaks as they are shown.
    public enum AutoSpeak: String, Sendable, Equatable, CaseIterable {
        case no, front, back, both

        /// Whether `side` is spoken as it is shown.
        public func speaks(_ side: SideName) -> Bool {
            self == .both || rawValue == side.rawValue
        }
    }

    // [Voice]
    /// `Program=` and the `PATH` to look for its default, `espeak-ng`, on, when asked (R33).
    public var voiceSetting: ProgramSetting
    /// The program that speaks a card's text (`Program=`, default `espeak-ng` when it is on
    /// `PATH`); nil: no voice.
    public var voiceProgram: String? {
        get { voiceSetting.command }
        set { voiceSetting.command = newValue }
    }
    /// The voice of a card without a `lang:XX` tag (`Language=`); nil: the program's own.
    public var voiceLanguage: String?
    /// The voice as the daemon makes it.
    public var voice: VoiceSettings { VoiceSettings(program: voiceProgram, language: voiceLanguage) }

    // [Web]
    /// `leitner-web`'s address and cookie (docs/web.md).
    public var web = WebSettings()

    /// The embedded defaults for the user `locator` describes.
    public init(defaultsFor locator: ConfigurationLocator) {
        storePath = locator.defaultStorePath
        socketPath = locator.defaultSocketPath
        privateSocketDirectory = locator.fallbackSocketDirectory
        let path = locator.environment["PATH"] ?? ""
        viewerSetting = ProgramSetting(candidates: [.init(program: "xdg-open", command: "xdg-open")], searchPath: path)
        playerSetting = ProgramSetting(candidates: Configuration.audioPlayers, searchPath: path)
        voiceSetting = ProgramSetting(candidates: [.init(program: "espeak-ng", command: "espeak-ng")], searchPath: path)
    }

    /// The clock of the learning day (`DayStartsAt=`) in the local time zone.
    public var dayClock: DayClock { DayClock(dayStartsAt: dayStartsAt) }

    /// The store to use: the command line's `--store` when given, else `storePath`.
    public func resolvedStorePath(override: String?) -> String {
        override ?? storePath
    }

    /// The socket to use: the command line's `--socket` when given, else `socketPath` (which
    /// already holds `$LEITNER_SOCKET`, then `Socket=`, then the default).
    public func resolvedSocketPath(override: String?) -> String {
        override ?? socketPath
    }

    /// Reads the configuration as `leitnerd` and `leitnerctl` do (`docs/configuration.md`):
    /// `path` when given (it must exist), else the user's file when it exists, else the
    /// embedded defaults; then, for the default box, `$LEITNER_SOCKET` over `Socket=`.
    /// - Parameters:
    ///   - path: the `--config` option, or nil.
    ///   - locator: the user's environment, uid and home.
    /// - Throws: `ConfigurationError`: `cannot read 'PATH': reason`, or `FILE:LINE: message`.
    public static func load(path: String?, locator: ConfigurationLocator) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration(defaultsFor: locator)
        let file = path ?? locator.userConfigurationPath
        var bytes: [UInt8]? = nil
        do {
            bytes = try FileSystem.readFile(atPath: file, limit: 1 << 20)
        } catch where path == nil && (error == .noEntry || error == .notDirectory) {
            // No file of the user's: the embedded defaults.
        } catch {
            throw .cannotRead(path: file, reason: error.description)
        }
        if let bytes {
            configuration.source = file
            try ConfigurationParser(path: file, home: locator.home)
                .parse(String(decoding: bytes, as: UTF8.self), into: &configuration)
        }
        // LEITNER_SOCKET is the default box's: a box named on purpose is served on its own
        // socket, whatever a shell's profile exports (R29).
        if locator.box == nil, let socket = locator.environment["LEITNER_SOCKET"], !socket.isEmpty {
            configuration.socketPath = socket
        }
        return configuration
    }

    /// Reads the configuration for the running user: `load(path:locator:)` with the user's id
    /// and home directory and the given environment.
    /// - Throws: `ConfigurationError`, as `load(path:locator:)`.
    public static func load(path: String?, environment: [String: String]) throws(ConfigurationError) -> Configuration {
        try load(path: path, locator: ConfigurationLocator(environment: environment))
    }
}
