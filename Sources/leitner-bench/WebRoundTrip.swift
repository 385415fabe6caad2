import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink
import LeitnerWeb

/// The review through leitner-web beside the daemon's own `Grade`, in the same run on the same
/// store (docs/web.md, "Performance"): first `grades` grades with the typed client straight to
/// leitnerd (only `Grade` timed, after the `Next` that showed the card), then `grades` through the
/// web as a browser makes them on one kept-alive connection, timed from the POST of the grade to
/// the next card's page read whole (the POST, its 303, and the GET of /review). Also leitner-web's
/// resident memory once idle, the size of the review page, and every page it serves timed
/// through HTTP beside the floor of a static asset from the same server (`measurePages`).
enum WebRoundTrip {
    static func run(store: String, in directory: String, grades: Int) {
        let programs = String(CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/"))
        let socket = directory + "/web.sock"
        let urlFile = directory + "/web.url"
        unlink(socket)
        unlink(urlFile)
        // The daemon builds the search index as it starts only for a store searched before
        // (docs/daemon.md, "Indexes built off the turn"): the first search view depends on it.
        let searched = access(store + "/.leitner/local.\(BenchDevice.name)/search-index", F_OK) == 0
        print("web: the store was searched before (its search index's file there): \(searched ? "yes" : "no")")
        let daemonPid = directory + "/web-daemon.pid", webPid = directory + "/web.pid"
        defer { _ = system("kill $(cat '\(webPid)') $(cat '\(daemonPid)') 2>/dev/null") }
        // The daemon of the measurement before may still hold the store for a moment after its
        // SIGTERM: a daemon that exits at once (the store is locked) is started again, for a minute.
        let startDaemon = "'\(programs)/leitnerd' --config '\(BenchDevice.configuration(in: directory))' --store '\(store)' --socket '\(socket)' >/dev/null 2>&1 & echo $! > '\(daemonPid)'"
        let deadline = Timing.now() + 60
        _ = system(startDaemon)
        while access(socket, F_OK) != 0 && Timing.now() < deadline {
            usleep(50_000)
            if system("kill -0 $(cat '\(daemonPid)') 2>/dev/null") != 0 { _ = system(startDaemon) }
        }
        guard access(socket, F_OK) == 0,
              system("XDG_STATE_HOME='\(directory)/web-state' '\(programs)/leitner-web' --socket '\(socket)' --listen 127.0.0.1:0 --print-url >'\(urlFile)' 2>/dev/null & echo $! > '\(webPid)'") == 0 else {
            complain("cannot start leitnerd and leitner-web")
            return
        }
        // The first line leitner-web prints is the pairing link (docs/web.md); a QR code follows.
        var url = ""
        for _ in 0..<500 {
            let printed = (try? FileSystem.readFile(atPath: urlFile)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if let end = printed.firstIndex(of: "\n") { url = String(printed[..<end]); break }
            usleep(20_000)
        }
        let pid = (try? FileSystem.readFile(atPath: directory + "/web.pid")).flatMap { Int32(String(decoding: $0, as: UTF8.self).split(separator: "\n").first ?? "") } ?? 0
        do {
            try measure(url: url, socket: socket, pid: pid, grades: grades)
        } catch {
            complain("the web round trip failed: \(error)")
        }
    }

    private static func measure(url: String, socket: String, pid: Int32, grades: Int) throws {
        let afterHost = url.dropFirst("http://127.0.0.1:".count)
        guard let slash = afterHost.firstIndex(of: "/"), let port = UInt16(afterHost[..<slash]) else {
            complain("leitner-web printed no pairing link, but '\(url)'")
            throw Errno(rawValue: EINVAL)
        }
        let pairing = String(afterHost[slash...])
        let box = BoxClient(try VarlinkClient(socketPath: socket))
        _ = try box.prepare()
        var daemonTimes: [Double] = []
        for _ in 0..<grades {
            guard let card = try box.next().value.card else { break }
            daemonTimes.append(try Timing.secondsThrowing { _ = try box.grade(id: card.id, correct: true) })
        }
        let web = try WebClient(port: port)
        let door = try web.request("GET", pairing)
        guard let cookie = door.headers.first(where: { $0.hasPrefix("Set-Cookie: ") }).map({ String($0.dropFirst(12).prefix { $0 != ";" }) }) else {
            throw Errno(rawValue: EACCES)
        }
        var page = String(decoding: try web.request("GET", "/review", cookie: cookie).body, as: UTF8.self)
        let pageBytes = page.utf8.count
        usleep(200_000)
        let idle = residentKiB(pid)
        var webTimes: [Double] = []
        for _ in 0..<grades {
            guard let handle = value(after: "card=", in: page) else { break }
            // The answer page carries the form; a browser has it before it grades.
            let answer = String(decoding: try web.request("GET", "/review/answer?card=\(handle)", cookie: cookie).body, as: UTF8.self)
            guard let csrf = value(after: "name=\"csrf\" value=\"", in: answer) else { break }
            webTimes.append(try Timing.secondsThrowing {
                let posted = try web.request("POST", "/review/grade", cookie: cookie, form: "csrf=\(csrf)&card=\(handle)&correct=yes")
                guard posted.status == 303 else { throw Errno(rawValue: EPROTO) }
                page = String(decoding: try web.request("GET", "/review", cookie: cookie).body, as: UTF8.self)
            })
        }
        guard !daemonTimes.isEmpty, !webTimes.isEmpty else { complain("no card to grade in the test"); return }
        let daemon50 = Timing.percentile(daemonTimes, 0.5), web50 = Timing.percentile(webTimes, 0.5)
        print("web: Grade, leitnerd alone          p50 \(Timing.ms(daemon50))  p99 \(Timing.ms(Timing.percentile(daemonTimes, 0.99)))  (\(daemonTimes.count) grades)")
        print("web: Grade through leitner-web      p50 \(Timing.ms(web50))  p99 \(Timing.ms(Timing.percentile(webTimes, 0.99)))  (POST grade → 303 → next card's page; \(webTimes.count) grades): \(web50 >= daemon50 ? "+" : "")\(Timing.ms(web50 - daemon50)) p50")
        print("web: leitner-web idle RSS \(idle / 1024).\(idle % 1024 * 10 / 1024) MiB; review page \(pageBytes) bytes (+ style \(EmbeddedAssets.styleSheet.bytes.count) and script \(EmbeddedAssets.script.bytes.count) bytes, kept by the browser)")
        try measurePages(web, cookie: cookie, card: box.next().value.card?.id ?? "card-1-benchmark", rounds: 200)
    }

    /// Every page leitner-web serves to a browser that is let in, each asked `rounds` times on
    /// the kept-alive connection, the pages in turns so that the machine's drift touches each
    /// alike, timed from the request's first byte to the response's last (docs/web.md,
    /// "Performance"); beside them the floor, a static asset of the same server (the style
    /// sheet: parsing, the session's check and a write, nothing of the daemon). The POSTs are the
    /// grade's, above; the door and the pairing pages are before a session.
    static func measurePages(_ web: WebClient, cookie: String, card: String, rounds: Int) throws {
        func get(_ target: String) throws -> String {
            let response = try web.request("GET", target, cookie: cookie)
            guard response.status == 200 else { throw Errno(rawValue: EPROTO) }
            return String(decoding: response.body, as: UTF8.self)
        }
        // A later page of a level, as its Next link names it.
        let second = try get("/cards?level=1")
        let next = value(of: "href=\"", before: "\" rel=\"next\"", in: second)?.replacing("&amp;", with: "&") ?? "/cards?level=1"
        let answer = try get("/review")
        let handle = value(after: "card=", in: answer) ?? ""
        let pages: [(name: String, target: String)] = [
            ("static asset (floor)", "/static/\(EmbeddedAssets.styleSheet.name)"),
            ("Today", "/"),
            ("Review", "/review"),
            ("Review, answer", "/review/answer?card=\(handle)"),
            ("Cards, first page", "/cards"),
            ("Cards, level 1", "/cards?level=1"),
            ("Cards, level 1, next page", next),
            ("Cards, finished", "/cards?level=finished"),
            ("Cards, search (one card)", "/cards?q=front+77777"),
            // Every card's front holds it: the first page of 100,000 matches.
            ("Cards, search (every card)", "/cards?q=front"),
            ("Card", "/cards/\(card)"),
            ("Card's side", "/cards/\(card)/asset/front"),
            ("Add a card", "/cards/new"),
            ("Statistics", "/stats"),
            ("Devices", "/devices"),
        ]
        var times = [[Double]](repeating: [], count: pages.count)
        for _ in 0..<rounds {
            for (index, page) in pages.enumerated() {
                times[index].append(try Timing.secondsThrowing { _ = try get(page.target) })
            }
        }
        let floor = Timing.percentile(times[0], 0.99)
        for (index, page) in pages.enumerated() {
            let p99 = Timing.percentile(times[index], 0.99)
            print("web: GET \(page.name + String(repeating: " ", count: max(0, 27 - page.name.count))) p50 \(Timing.ms(Timing.percentile(times[index], 0.5)))  p99 \(Timing.ms(p99))  (\(Timing.ratio(p99, floor)) the floor's p99; \(rounds) each)")
        }
        // Which views make a p99 of 200: the three slowest of each page and their rounds (from 1),
        // to tell a page's first views after the start (an index built, its watches added) from
        // views slowed at any time (the load, the daemon's own work).
        for (index, page) in pages.enumerated() {
            let slowest = times[index].enumerated().sorted { $0.element > $1.element }.prefix(3)
            print("web: slowest \(page.name + String(repeating: " ", count: max(0, 27 - page.name.count))) "
                  + slowest.map { "\(Timing.ms($0.element)) (round \($0.offset + 1))" }.joined(separator: ", "))
        }
    }

    /// The text between `start` and the first `end` before which it ends: the last `href` before
    /// a link's `rel`.
    private static func value(of start: String, before end: String, in page: String) -> String? {
        guard let stop = page.firstRange(of: end), let open = page[..<stop.lowerBound].ranges(of: start).last else { return nil }
        return String(page[open.upperBound..<stop.lowerBound])
    }

    private static func value(after marker: String, in page: String) -> String? {
        guard let start = page.firstRange(of: marker) else { return nil }
        return String(page[start.upperBound...].prefix { $0.isHexDigit })
    }

    private static func residentKiB(_ pid: Int32) -> Int {
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/\(pid)/status") else { return 0 }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }
}
