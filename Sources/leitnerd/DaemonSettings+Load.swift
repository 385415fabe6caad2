import Glibc
import LeitnerCore

extension DaemonSettings {
    /// The settings from the embedded defaults and the command line.
    static func load(_ options: CommandLineOptions) throws(Failure) -> DaemonSettings {
        let store = options.storePath ?? defaultStorePath()
        var socket = options.socketPath
        if socket == nil, let value = getenv("LEITNER_SOCKET"), value.pointee != 0 { socket = String(cString: value) }
        return DaemonSettings(
            boxOptions: BoxOptions(storePath: store),
            socketPath: socket ?? defaultSocketPath(),
            socketMode: 0o600,
            allowGroup: nil,
            maxMessageSize: 16 << 20,
            maxConnections: 64,
            idleTimeout: .seconds(30),
            exitIdleAfter: nil,
            testReady: nil)
    }

    static func defaultStorePath() -> String {
        if let data = getenv("XDG_DATA_HOME"), data.pointee != 0 { return String(cString: data) + "/leitner" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/"
        return home + "/.local/share/leitner"
    }

    static func defaultSocketPath() -> String {
        if let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 {
            return String(cString: runtime) + "/leitner/leitnerd.sock"
        }
        return "/tmp/leitner-\(FileSystem.effectiveUserID)/leitnerd.sock"
    }
}
