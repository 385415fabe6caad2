import Glibc

/// Where the configuration and the default store and socket are for one user: from the
/// environment (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `XDG_RUNTIME_DIR`, `PATH`), the uid and the
/// home directory, all given, so that tests need not touch the process's own.
public struct ConfigurationLocator: Sendable, Equatable {
    /// The environment variables.
    public var environment: [String: String]
    /// The user's id, for the `/tmp/leitner-UID` fallback.
    public var uid: UInt32
    /// The home directory, for `~/` and the XDG defaults.
    public var home: String
    /// The box the paths are for (R29, a valid `BoxName`); nil: the default box, whose paths
    /// are those from before there were several.
    public var box: String?

    /// A locator for the given user and box.
    public init(environment: [String: String], uid: UInt32, home: String, box: String? = nil) {
        self.environment = environment
        self.uid = uid
        self.home = home
        self.box = box
    }

    /// A locator for the running user with the given environment: the uid from `getuid()`, the
    /// home from `$HOME` when absolute, else from the password database, else `/`.
    public init(environment: [String: String], box: String? = nil) {
        let uid = getuid()
        var home = environment["HOME"] ?? ""
        if !home.hasPrefix("/") { home = ConfigurationLocator.passwordHome(uid: uid) ?? "/" }
        self.init(environment: environment, uid: uid, home: home, box: box)
    }

    /// The variables a locator reads, from the process's environment.
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["HOME", "PATH", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "LEITNER_SOCKET"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The user's configuration file: `$XDG_CONFIG_HOME/leitner/leitner.conf`, by default
    /// `~/.config/leitner/leitner.conf`; a box's is `NAME.conf` beside it (R29).
    public var userConfigurationPath: String {
        configurationDirectory + "/" + (box ?? "leitner") + ".conf"
    }

    /// `$XDG_CONFIG_HOME/leitner`, by default `~/.config/leitner`: where the configuration files
    /// of the default box and of every other box are.
    public var configurationDirectory: String {
        baseDirectory("XDG_CONFIG_HOME", else: ".config") + "/leitner"
    }

    /// The default store: `$XDG_DATA_HOME/leitner`, by default `~/.local/share/leitner`; a
    /// box's is `boxes/NAME` in it (R29).
    public var defaultStorePath: String {
        box.map { boxesDirectory + "/" + $0 } ?? baseDirectory("XDG_DATA_HOME", else: ".local/share") + "/leitner"
    }

    /// `$XDG_DATA_HOME/leitner/boxes`: the stores of the boxes other than the default one.
    public var boxesDirectory: String {
        baseDirectory("XDG_DATA_HOME", else: ".local/share") + "/leitner/boxes"
    }

    /// Where this machine's device id is kept when `[Sync] Device=` sets none (docs/sync.md):
    /// `$XDG_STATE_HOME/leitner/device`, by default `~/.local/state/leitner/device`. Outside the
    /// store, so that a copy of the store taken to another machine is another device there.
    public var deviceFilePath: String {
        baseDirectory("XDG_STATE_HOME", else: ".local/state") + "/leitner/device"
    }

    /// Where the standard error of a daemon that leitnerctl starts goes (docs/leitnerctl.md,
    /// "Autostart"): `$XDG_STATE_HOME/leitner/NAME.log`, NAME the socket's file name without
    /// `.sock` (`leitnerd.log` for the default socket). A state directory of the user's own,
    /// kept across reboots, rather than `/tmp` or the runtime directory.
    public func autostartLogPath(socketPath: String) -> String {
        var name = String(socketPath.split(separator: "/").last ?? "leitnerd")
        if name.hasSuffix(".sock") { name.removeLast(5) }
        return baseDirectory("XDG_STATE_HOME", else: ".local/state") + "/leitner/" + name + ".log"
    }

    /// The default socket: `$XDG_RUNTIME_DIR/leitner/leitnerd.sock`, without `XDG_RUNTIME_DIR`
    /// `/tmp/leitner-UID/leitnerd.sock`; a box's is `NAME.sock` in the same directory (R29).
    public var defaultSocketPath: String {
        let name = (box ?? "leitnerd") + ".sock"
        if let runtime = absolute("XDG_RUNTIME_DIR") { return runtime + "/leitner/" + name }
        return fallbackSocketDirectory + "/" + name
    }

    /// `/tmp/leitner-UID`: the socket's directory without `XDG_RUNTIME_DIR`, which must belong
    /// to the user (see `preparePrivateDirectory`).
    public var fallbackSocketDirectory: String { "/tmp/leitner-\(uid)" }

    /// The full path of `name` in a directory of `$PATH`, when it is an executable file there.
    public func executableOnPath(_ name: String) -> String? {
        ConfigurationLocator.executable(named: name, onPath: environment["PATH"] ?? "")
    }

    /// The full path of `name` in a directory of `path` (a `$PATH`), when it is an executable
    /// file there; relative directories are skipped.
    public static func executable(named name: String, onPath path: String) -> String? {
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// An XDG base directory: the variable when it holds an absolute path (the XDG rule: a
    /// relative one is ignored), else `fallback` under the home directory.
    private func baseDirectory(_ variable: String, else fallback: String) -> String {
        absolute(variable) ?? (home.hasSuffix("/") ? home : home + "/") + fallback
    }

    private func absolute(_ variable: String) -> String? {
        guard let value = environment[variable], value.hasPrefix("/") else { return nil }
        return value
    }

    /// The home directory of `uid` in the password database.
    private static func passwordHome(uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, let found = result,
              let directory = found.pointee.pw_dir
        else { return nil }
        return String(cString: directory)
    }
}
