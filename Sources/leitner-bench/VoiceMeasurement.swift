import Glibc
import LeitnerCore
import LeitnerSystem

/// #37's voice figure (docs/performance.md, "Cloze notes and media"): the speech of a 200-card
/// test (400 sides) made by the real `espeak-ng`, timed from the `Prepare` that opens the test
/// to the last file, and shown off the review's path: `Prepare` with the voice beside `Prepare`
/// without it, and `Show` while the speech is being made beside `Show` once it is done.
enum VoiceMeasurement {
    static let cards = 200
    static let program = "espeak-ng"

    static func run(workDirectory: String) throws {
        guard installed(program) else {
            print("voice: \(program) is not installed: the speech of a \(cards)-card test is not measured (Debian: apt install espeak-ng)")
            return
        }
        let store = workDirectory + "/voice-\(cards)"
        _ = system("rm -rf '\(store)'")
        try StoreBuilder.build(at: store, count: cards, level: "1")
        let testFile = store + "/" + Box.stateDirectoryName + "/local." + BenchDevice.name + "/test"
        func open(voice: Bool) throws -> Box {
            unlink(testFile)
            var options = BoxOptions(storePath: store, device: BenchDevice.name)
            if voice { options.voice = VoiceSettings(program: program, language: "en") }
            return try Box(options: options)
        }
        // The first Prepare with the voice, the cache empty: then Show, card after card, for as
        // long as the speech is being made.
        let box = try open(voice: true)
        var queue: [String] = []
        let started = Timing.now()
        let firstPrepare = try Timing.secondsThrowing { _ = try box.prepare() }
        queue = try box.list(level: "1", withText: false).map(\.id)
        var busyShows: [Double] = []
        var made = 0
        while true {
            let progress = box.voiceProgress ?? (made: 0, found: 0, busy: false)
            made = progress.made + progress.found
            if !progress.busy && made >= 2 * cards || box.voiceProblem != nil || Timing.now() - started > 1800 { break }
            let id = queue[busyShows.count % queue.count]
            busyShows.append(try Timing.secondsThrowing { _ = try box.show(id: id) })
            usleep(2_000)
        }
        let making = Timing.now() - started
        if let problem = box.voiceProblem { print("voice: \(problem)") }
        box.close()
        // Prepare in turns with the voice (the speech found made) and without; Show idle.
        var withVoice: [Double] = []
        var without: [Double] = []
        for _ in 0..<5 {
            for voice in [false, true] {
                let box = try open(voice: voice)
                let time = try Timing.secondsThrowing { _ = try box.prepare() }
                if voice { withVoice.append(time) } else { without.append(time) }
                box.close()
            }
        }
        let idle = try open(voice: false)
        _ = try idle.prepare()
        var idleShows: [Double] = []
        for _ in 0..<5 {
            for id in queue { idleShows.append(try Timing.secondsThrowing { _ = try idle.show(id: id) }) }
        }
        idle.close()
        let busy50 = Timing.percentile(busyShows.isEmpty ? [0] : busyShows, 0.5), idle50 = Timing.percentile(idleShows, 0.5)
        let on = Timing.percentile(withVoice, 0.5), off = Timing.percentile(without, 0.5)
        print("voice: \(program) made the speech of a \(cards)-card test, \(made) of \(2 * cards) sides, in \(Int(making.rounded())) s "
              + "after the Prepare that opened it (\(Timing.ms(firstPrepare)))")
        print("voice: Prepare of the \(cards)-card test with the voice  p50 \(Timing.ms(on)); peer: without it  p50 \(Timing.ms(off)); "
              + "\(Timing.ratio(on, off)) at p50")
        print("voice: Show while the speech was made, \(busyShows.count) calls  p50 \(Timing.ms(busy50))  p99 "
              + "\(Timing.ms(Timing.percentile(busyShows.isEmpty ? [0] : busyShows, 0.99))); peer: Show with no speech being made  "
              + "p50 \(Timing.ms(idle50)); \(Timing.ratio(busy50, idle50)) at p50")
    }

    /// Whether `name` is an executable file in a directory of `PATH`.
    static func installed(_ name: String) -> Bool {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}
