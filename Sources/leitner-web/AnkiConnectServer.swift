import Glibc
import LeitnerCore
import LeitnerSystem
import LeitnerWeb

/// The AnkiConnect door's listener (`[Web] AnkiConnect=`, docs/web.md, "AnkiConnect"): a
/// `WebServer` of its own answering with an `AnkiConnectDoor`, its loop on a thread of its own,
/// stopped by the main server's stop. It is bound to its address even under systemd socket
/// activation, whose socket is the site's.
enum AnkiConnectServer {
    /// Few connections: a dictionary sends one request at a time.
    static let maxConnections = 8

    /// The door's limits: a body carries a picture or a word's sound in base64, so it may be
    /// larger than the site's, and OPTIONS is read for the extension's CORS preflight.
    static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.body = 16 << 20
        limits.methods = [.get, .head, .post, .options]
        return limits
    }

    /// Starts the door at `address`. - Returns: its server, to stop; nil when it could not start
    /// (said in the log).
    static func start(address: Socket.InternetAddress, configuration: Configuration, devices: DeviceBook,
                      locator: ConfigurationLocator, box: String?, site: Socket.InternetAddress,
                      transport: ReconnectingTransport) -> WebServer? {
        let key: String
        let listener: ServiceListener
        do {
            key = try devices.ankiConnectKey()
            listener = try ServiceListener.bind(address: address)
        } catch {
            WebLog.error("cannot open the AnkiConnect door at \(address): \(error)")
            return nil
        }
        if !address.isLoopback {
            WebLog.warning("the AnkiConnect door listens on \(address), which is not a loopback address: its key crosses the network readable")
        }
        // The site's address as a browser on this machine reaches it.
        let siteHost = Socket.InternetAddress(host: Pairing.hosts(site)[0], port: site.port)
        let served = ServedNames(Pairing.hosts(address) + configuration.web.serverNames)
        let door = AnkiConnectDoor(key: key, origins: configuration.web.ankiConnectOrigins, served: served, transport: transport,
                                   shelf: AnkiMediaShelf(stateDirectory: locator.webStateDirectory, box: box),
                                   boxName: box, webAddress: "http://\(siteHost)", opener: openInBrowser)
        let server: WebServer
        do {
            // No signals of its own: the main server reads them and stops this one.
            server = try WebServer(listener: listener, responder: door, limits: limits, maxConnections: maxConnections,
                                   signals: try SignalDescriptor(signals: []))
        } catch {
            WebLog.error("cannot start the AnkiConnect door: \(error)")
            listener.descriptor.close()
            return nil
        }
        if let failure = DetachedThread.start({ _ = server.run() }) {
            WebLog.error("cannot start the AnkiConnect door's thread: \(Errno(rawValue: failure))")
            listener.descriptor.close()
            return nil
        }
        WebLog.info("the AnkiConnect door listens at http://\(address)/ (origins: \(configuration.web.ankiConnectOrigins.isEmpty ? "none; programs without an origin only" : configuration.web.ankiConnectOrigins.joined(separator: " ")))")
        return server
    }

    /// Stops the door and waits, at most `WebServer.stopLimit`, for its busy requests.
    static func stop(_ server: WebServer) {
        server.requestStop()
        let deadline = MonotonicTime.now + WebServer.stopLimit + .milliseconds(100)
        while !server.hasFinished, MonotonicTime.now < deadline {
            // Polled: the door's thread has no way to ring a loop that has ended.
            usleep(10_000)
        }
    }

    /// `guiBrowse`: `xdg-open URL`, the desktop's way to open a page in the learner's browser.
    /// Its exit is awaited on a thread of its own, so no child is left a zombie.
    static let openInBrowser: @Sendable (String) -> Bool = { url in
        guard let pid = try? ChildProcess.spawn("xdg-open", arguments: [url], searchPath: true, input: .null,
                                                output: .null, error: .null, newSession: true) else { return false }
        _ = DetachedThread.start { _ = try? ChildProcess.wait(for: pid) }
        return true
    }
}
