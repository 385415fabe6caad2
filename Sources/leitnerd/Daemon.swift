import Glibc
import LeitnerCore
import LeitnerSystem

/// Start-up and shut-down of `leitnerd` (docs/daemon.md): command line, configuration, store lock
/// (R19) and repair, listener, readiness; then the server until a stop; then the box closed
/// (durable, unlocked), the socket removed, exit 0.
enum Daemon {
    static func main(arguments: [String]) -> Int32 {
        // First, before any other thread exists: the signals the listener reads from a
        // descriptor stay pending instead of killing the process, in every thread.
        SignalMask.block(Signals.handled)
        SignalMask.ignore(SIGPIPE)
        // A long message's buffers are returned to the system as soon as they are freed
        // (docs/daemon.md, "Memory").
        MemoryTrim.mapAllocations(atLeast: 1 << 20)

        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(arguments)
        } catch {
            printError("leitnerd: \(error)\n\(CommandLineOptions.usage)\nSee 'leitnerd --help'.\n")
            return ExitStatus.usage
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
            return ExitStatus.failure
        }

        let wake: Wake
        let signals: SignalDescriptor
        do {
            wake = try Wake()
            signals = try SignalDescriptor(signals: Signals.handled)
        } catch {
            Log.error("cannot set up the server: \(error)")
            return ExitStatus.failure
        }

        let box: BoxOwner
        do {
            box = try BoxOwner(options: settings.boxOptions, hook: settings.testReady)
        } catch let locked as StoreLockedError {
            Log.error("\(locked)")
            return ExitStatus.failure
        } catch {
            Log.error("cannot open store '\(settings.boxOptions.storePath)': \(error)")
            return ExitStatus.failure
        }

        let listener: ServiceListener
        do {
            listener = try ServiceListener.open(path: settings.socketPath, mode: settings.socketMode, log: Log)
        } catch {
            Log.error("\(error)")
            _ = box.close(wake: wake, deadline: nil)
            return ExitStatus.failure
        }
        let place = listener.createdPath.map { "'\($0)'" } ?? "the socket passed by systemd"
        Log.info("serving store '\(box.storePath)' on \(place)")
        if let idle = settings.exitIdleAfter {
            // Said at start-up, of the future: the daemon serves until then (#25).
            let why = options.autostarted && idle == DaemonSettings.autostartExitIdleAfter
                ? "ExitIdleAfter=, started by leitnerctl" : "ExitIdleAfter="
            Log.info("will exit after \(idle.logDescription) without a client (\(why))")
        }

        let status = box.statusLine(wake: wake)
        do {
            try ServiceNotification.send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())")
        } catch {
            Log.warning("cannot notify the service manager: \(error), ignoring")
        }

        // Once ready: the search index of a store searched before is built ahead of its first search.
        box.buildSearchIndexAhead(wake: wake)

        let server = Server(listener: listener, box: box, settings: settings, wake: wake, signals: signals,
                            loadSettings: { try DaemonSettings.load(options) })
        let exitStatus = server.run()
        listener.removeCreatedSocket(log: Log)
        Log.info(exitStatus == 0 ? "stopped" : "stopped (exit status \(exitStatus))")
        return exitStatus
    }

    private static func printOut(_ text: String) {
        try? FileDescriptor(rawValue: 1).writeAll(text.utf8)
    }

    private static func printError(_ text: String) {
        try? FileDescriptor(rawValue: 2).writeAll(text.utf8)
    }
}
