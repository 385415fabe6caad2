/// A `[Client]` command that defaults to a program found on `PATH` (`Viewer=`, `Player=`): the
/// command the file set (nil: none), or else the first candidate on `PATH`, looked for only
/// when asked. Most runs of leitnerctl (`status`, `grade`, `list`) never open a file or play a
/// sound, and the search is an `access` per directory of `PATH` per candidate: 70 system calls
/// on a `PATH` of twelve directories when no player is installed.
public struct ProgramSetting: Sendable, Equatable {
    /// A program looked for on `PATH` and the command that runs it.
    public struct Candidate: Sendable, Equatable {
        public var program: String
        public var command: String

        public init(program: String, command: String) {
            self.program = program
            self.command = command
        }
    }

    /// The value the configuration gave (`.some(nil)`: set empty, none); nil: not set.
    private var configured: String??
    /// The candidates in order of preference, used only when nothing was configured.
    private let candidates: [Candidate]
    /// `$PATH` as the configuration was read with it.
    private let searchPath: String

    /// A setting with no configured value: the first of `candidates` on `searchPath`.
    public init(candidates: [Candidate], searchPath: String) {
        self.candidates = candidates
        self.searchPath = searchPath
    }

    /// The command to run: the configured one, else the first candidate on `PATH` (searched on
    /// each call; a caller that needs it twice keeps it), else nil.
    public var command: String? {
        get {
            if let configured { return configured }
            return candidates.first { ConfigurationLocator.executable(named: $0.program, onPath: searchPath) != nil }?.command
        }
        set { configured = .some(newValue) }
    }

    /// Whether the configuration set it (empty included), rather than leaving the default.
    public var isConfigured: Bool { configured != nil }

    /// Two settings are equal when they run the same command: `Viewer=xdg-open` written out
    /// equals the default that finds `xdg-open` on `PATH`, as the values were before the search
    /// was put off (it is made here, on both sides).
    public static func == (lhs: ProgramSetting, rhs: ProgramSetting) -> Bool {
        lhs.command == rhs.command
    }
}
