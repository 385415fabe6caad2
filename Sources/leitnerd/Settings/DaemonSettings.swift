import Glibc
import LeitnerCore

/// Everything the daemon runs by: the configuration (file and embedded defaults, docs/configuration.md) with
/// the command line's overrides applied, and names resolved (the group of `AllowGroup=`).
struct DaemonSettings: Sendable {
    var boxOptions: BoxOptions
    var socketPath: String
    var socketMode: mode_t
    /// The gid whose members may connect besides the daemon's own uid and root.
    var allowGroup: UInt32?
    var maxMessageSize: Int
    var maxConnections: Int
    var idleTimeout: Duration
    /// Stop after this long without a connection; nil: never.
    var exitIdleAfter: Duration?

    /// `ExitIdleAfter=` of a daemon that leitnerctl started (`--autostarted`) when the file sets
    /// none: nobody else would ever stop it. Under systemd, or started by hand, the default is
    /// never: the service manager, or the person, is in charge.
    static let autostartExitIdleAfter: Duration = .seconds(600)
    var testReady: TestReadyHook?

    var connectionLimits: Connection.ConnectionLimits {
        Connection.ConnectionLimits(maxMessageSize: maxMessageSize, idleTimeout: idleTimeout,
                                    maxConnections: maxConnections)
    }

    /// Why the settings cannot be made: a configuration error (`FILE:LINE: message`) or a name
    /// that does not resolve.
    struct SettingsError: Error, CustomStringConvertible {
        var description: String
    }
}
