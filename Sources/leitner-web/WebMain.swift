import Glibc
import LeitnerCore
import LeitnerSystem
import LeitnerWeb

/// Start-up: the command line, the configuration, the token, the listening socket; then the
/// server until a stop signal.
enum WebMain {
    static func main(arguments: [String]) -> Int32 {
        let options: WebOptions
        do {
            options = try WebOptions.parse(arguments)
        } catch {
            WebLog.error("\(error)\n\(WebOptions.usage)")
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
        // Signals are read from a descriptor: blocked before any thread starts.
        SignalMask.block([SIGTERM, SIGINT])
        SignalMask.ignore(SIGPIPE)
        let token: String
        do {
            token = try TokenFile.load(TokenFile.path(locator), renew: options.newToken)
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
            WebLog.warning("listening on \(listening), which is not a loopback address: any machine that reaches it can try the door. Only the token lets it in, and without HTTPS the token and the cards cross the network readable (docs/web.md, \"From a phone\")")
        }
        let url = "http://\(listening)/?token=\(token)"
        if options.printURL {
            // Written at once, unbuffered: leitnerctl web and the tests read it while this runs.
            try? FileDescriptor(rawValue: 1).writeAll((url + "\n").utf8)
        }
        WebLog.info("serving \(listener.activated ? "the socket systemd passed, " : "")http://\(listening)/ for \(options.box.map { "box '\($0)', " } ?? "")the daemon at '\(socketPath)'")
        let transport = ReconnectingTransport(socketPath: socketPath)
        let app = WebApp(token: token, secureCookie: configuration.web.secureCookie, transport: transport, boxName: options.box)
        do {
            let signals = try SignalDescriptor(signals: [SIGTERM, SIGINT])
            let server = try WebServer(listener: listener, app: app, limits: HTTPLimits(),
                                       maxConnections: configuration.web.maxConnections, signals: signals)
            _ = try? ServiceNotification.send("READY=1")
            let status = server.run()
            transport.close()
            return status
        } catch {
            WebLog.error("cannot start: \(error)")
            return ExitStatus.failure
        }
    }
}
