import Glibc
import LeitnerCore
import LeitnerSystem

extension DaemonSettings {
    /// Reads the configuration (`--config`, else the user's file, else the embedded defaults,
    /// docs/configuration.md; `--box` picks the box's file and default paths, R29) and applies the command line over it; resolves `AllowGroup=`. When the socket is
    /// the fallback `/tmp/leitner-UID/…`, that directory is made private (0700) or refused.
    /// - Throws: `SettingsError`: `FILE:LINE: message`, an unreadable file, an unknown group.
    static func load(_ options: CommandLineOptions) throws(SettingsError) -> DaemonSettings {
        let locator = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment(), box: options.box)
        let configuration: Configuration
        do {
            configuration = try Configuration.load(path: options.configPath, locator: locator)
        } catch {
            throw SettingsError(description: "\(error)")
        }
        var allowGroup: UInt32?
        if let selector = configuration.allowGroup {
            do {
                allowGroup = try selector.resolve()
            } catch {
                throw SettingsError(description: "\(configuration.source ?? "configuration"): AllowGroup=: \(error)")
            }
        }
        let socketPath = configuration.resolvedSocketPath(override: options.socketPath)
        if FileSystem.parent(of: socketPath) == locator.fallbackSocketDirectory {
            do {
                try locator.preparePrivateDirectory(locator.fallbackSocketDirectory, create: true)
            } catch {
                throw SettingsError(description: "\(error)")
            }
        }
        let device: String
        if let configured = configuration.device {
            device = configured
        } else {
            do {
                device = try DeviceID.loadOrCreate(at: locator.deviceFilePath)
            } catch {
                throw SettingsError(description: "\(error)")
            }
        }
        var boxOptions = BoxOptions(storePath: configuration.resolvedStorePath(override: options.storePath), device: device,
                                    cycle: configuration.cycle, onFail: configuration.onFail,
                                    dayClock: configuration.dayClock,
                                    maxAssetReply: BoxOptions.assetReplyLimit(messageSize: configuration.maxMessageSize))
        // Concurrent changes share one flush of the journal; each reply waits for its own
        // (docs/daemon.md, "Group commit").
        boxOptions.groupCommit = true
        // The search index and the tag table are read without holding the box: the other calls
        // go on meanwhile (docs/daemon.md, "Indexes built off the turn").
        boxOptions.buildsIndexesApart = true
        // So are the devices' logs of a synced machine's history when a sync is settled (docs/sync.md).
        boxOptions.settlesApartFrom = BoxOptions.settleApartFrom
        boxOptions.looksApartFrom = BoxOptions.settleApartFrom
        boxOptions.newPerDay = configuration.newPerDay
        boxOptions.leechAfter = configuration.leechAfter
        boxOptions.suspendLeeches = configuration.suspendLeeches
        boxOptions.searchSteps = configuration.searchSteps
        boxOptions.watchLimit = configuration.watchLimit
        boxOptions.voice = configuration.voice
        boxOptions.settleAfter = Int64(configuration.settleAfter.components.seconds) * 1000
            + configuration.settleAfter.components.attoseconds / 1_000_000_000_000_000
        let exitIdleAfter = configuration.exitIdleAfter ?? (options.autostarted ? autostartExitIdleAfter : nil)
        return DaemonSettings(
            boxOptions: boxOptions,
            socketPath: socketPath,
            socketMode: mode_t(configuration.socketMode),
            allowGroup: allowGroup,
            maxMessageSize: configuration.maxMessageSize,
            maxConnections: configuration.maxConnections,
            idleTimeout: configuration.idleTimeout,
            exitIdleAfter: exitIdleAfter == .zero ? nil : exitIdleAfter,
            testReady: configuration.testReady.map(TestReadyHook.init(command:)))
    }
}
