import Glibc
import LeitnerCore
import LeitnerSystem
import LeitnerWeb

/// Start-up: the command line, the configuration, the devices, the listening socket; then the
/// server until a stop signal.
enum WebMain {
    static func main(arguments: [String]) -> Int32 {
        let options: WebOptions
        do {
            options = try WebOptions.parse(arguments)
        } catch {
            // The usage on lines of its own, as a command line's error: the log would write the
            // line break as `\n`, since it keeps every entry on one line.
            WebLog.error("\(error)")
            try? FileDescriptor(rawValue: 2).writeAll("\(WebOptions.usage)\nSee 'leitner-web --help'.\n".utf8)
            return ExitStatus.usage
        }
        if options.showHelp {
            print(WebOptions.help)
            return 0
        }
        let locator = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment(), box: options.box)
        let configuration: Configuration
        do {
            configuration = try Configuration.load(path: options.configPath, locator: locator)
        } catch {
            WebLog.error("\(error)")
            return ExitStatus.failure
        }
        let socketPath = configuration.resolvedSocketPath(override: options.socketPath)
        let address = options.listen ?? configuration.web.listen
        let devices = DeviceBook(directory: locator.webStateDirectory, box: options.box)
        if options.listDevices || options.revoke != nil {
            return DeviceCommands.run(options, devices: devices)
        }
        if options.ankiKey {
            do {
                print(try devices.ankiConnectKey())
                return 0
            } catch {
                WebLog.error("\(error)")
                return ExitStatus.failure
            }
        }
        if options.pair {
            // For the server already running: its address is the configured one (or --listen).
            return Pairing.printLinks(devices: devices, address: address) ? 0 : ExitStatus.failure
        }
        // Signals are read from a descriptor: blocked before any thread starts.
        SignalMask.block([SIGTERM, SIGINT])
        SignalMask.ignore(SIGPIPE)
        do {
            _ = try devices.devices()  // a devices file others may read, or a broken one, is said at start
        } catch {
            WebLog.error("\(error)")
            return ExitStatus.failure
        }
        let listener: ServiceListener
        let listening: Socket.InternetAddress
        do {
            listener = try ServiceListener.open(address: address, log: WebLog)
            // The port systemd bound, or the kernel chose for port 0; the host as configured,
            // for the printed link.
            listening = Socket.InternetAddress(host: address.host, port: try Socket.localPort(listener.descriptor))
        } catch {
            WebLog.error("\(error)")
            return ExitStatus.unavailable
        }
        if !listening.isLoopback {
            WebLog.warning("listening on \(listening), which is not a loopback address: any machine that reaches it can try the door. Only a pairing link lets it in, and without HTTPS the cookie and the cards cross the network readable (docs/web.md, \"From a phone\")")
        }
        WebLog.info("serving \(listener.activated ? "the socket systemd passed, " : "")http://\(listening)/ for \(options.box.map { "box '\($0)', " } ?? "")the daemon at '\(socketPath)'")
        let transport = ReconnectingTransport(socketPath: socketPath)
        let served = ServedNames(Pairing.hosts(listening) + configuration.web.serverNames)
        let app = WebApp(devices: devices, served: served, cookie: CookieHeader(box: options.box, port: listening.port),
                         secureCookie: configuration.web.secureCookie, transport: transport, boxName: options.box,
                         ignoresAccents: configuration.ignoreAccents)
        // A request's buffer reaches the 1 MiB body limit; mapped on its own, it is returned to
        // the system when the connection ends, not kept in its thread's arena (16 bodies read
        // at once, each whole from the kernel's buffer, left 42 MiB resident where 17 were).
        MemoryTrim.mapAllocations(atLeast: 256 << 10)
        do {
            let signals = try SignalDescriptor(signals: [SIGTERM, SIGINT])
            let server = try WebServer(listener: listener, responder: app, limits: HTTPLimits(),
                                       maxConnections: configuration.web.maxConnections, signals: signals)
            let door = configuration.web.ankiConnect.flatMap { address in
                AnkiConnectServer.start(address: address, configuration: configuration, devices: devices, locator: locator,
                                        box: options.box, site: listening, transport: transport)
            }
            if configuration.web.ankiConnect != nil, door == nil { return ExitStatus.unavailable }
            // Printed once every listener is open, the AnkiConnect door's too: whoever waits for
            // the link (a script, the tests) may then use either at once.
            if options.printURL, !Pairing.printLinks(devices: devices, address: listening) {
                if let door { AnkiConnectServer.stop(door) }
                return ExitStatus.failure
            }
            _ = try? ServiceNotification.send("READY=1")
            let status = server.run()
            if let door { AnkiConnectServer.stop(door) }
            transport.close()
            return status
        } catch {
            WebLog.error("cannot start: \(error)")
            return ExitStatus.failure
        }
    }
}
