import Glibc
import LeitnerCore

/// Start-up and shut-down of `leitnerd` (SPEC §5): command line, configuration, store lock
/// (R19) and repair, listener, readiness; then the server until a stop signal; then the box
/// closed (durable, unlocked), the socket removed, exit 0.
enum Daemon {
    /// Exit codes: 0 stopped cleanly, 1 failure, 64 usage (STYLE §8).
    static let exitFailure: Int32 = 1
    static let exitUsage: Int32 = 64

    static func main(arguments: [String]) async -> Int32 {
        // First, before any other thread exists: the signals the server takes through Dispatch
        // sources stay pending instead of killing the process.
        SignalMask.block(SignalStream.handled)
        SignalMask.ignore(SIGPIPE)

        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            printError("leitnerd: \(error)\n\(CommandLineOptions.usage)\nSee 'leitnerd --help'.\n")
            return exitUsage
        }
        if options.showHelp {
            printOut(CommandLineOptions.help + "\n")
            return 0
        }
        if options.showVersion {
            printOut("leitnerd \(ServiceInterface.version)\n")
            return 0
        }

        let settings: DaemonSettings
        do {
            settings = try DaemonSettings.load(options)
        } catch {
            Log.error("\(error)")
            return exitFailure
        }

        let service: BoxService
        do {
            service = try BoxService(options: settings.boxOptions, hook: settings.testReady)
        } catch let locked as StoreLockedError {
            Log.error("\(locked)")
            return exitFailure
        } catch {
            Log.error("cannot open store '\(settings.boxOptions.storePath)': \(error)")
            return exitFailure
        }

        let listener: Listener
        do {
            listener = try Listener.open(path: settings.socketPath, mode: settings.socketMode)
        } catch {
            Log.error("\(error)")
            await service.close()
            return exitFailure
        }
        let place = listener.createdPath.map { "'\($0)'" } ?? "the socket passed by systemd"
        Log.info("serving store '\(service.storePath)' on \(place)")

        let status = await service.statusLine()
        do {
            try ServiceNotification.send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())")
        } catch {
            Log.warning("cannot notify the service manager: \(error), ignoring")
        }

        let server: Server
        do {
            server = try Server(listener: listener, dispatcher: Dispatcher(service: service), settings: settings,
                                loadSettings: { try DaemonSettings.load(options) })
        } catch {
            Log.error("cannot set up the server: \(error)")
            await service.close()
            listener.removeCreatedSocket()
            return exitFailure
        }
        await server.run()

        await service.close()
        listener.removeCreatedSocket()
        Log.info("stopped")
        return 0
    }

    private static func printOut(_ text: String) {
        try? FileDescriptor(rawValue: 1).writeAll(text.utf8)
    }

    private static func printError(_ text: String) {
        try? FileDescriptor(rawValue: 2).writeAll(text.utf8)
    }
}
