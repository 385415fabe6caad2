import Glibc
import LeitnerSystem
import Synchronization

/// Makes the speech of cards ahead of time (docs/rules.md R33), on a thread of its own and never
/// under the box's turn: the box hands it what to say (the texts of a card added or edited, or
/// the cards of a test it opened, read here through a `CardReader` of their own) and goes on.
/// One thread runs while there is work and ends when there is none. A program that is missing
/// or fails is said once (`problem`), not once a card; a missing one stops the work, as every
/// other card would fail the same way.
public final class VoiceMaker: Sendable {
    /// One speech to make: the text, its voice, and the cache's file name for the two and the program.
    public struct Job: Sendable, Hashable {
        public var text: String
        public var voice: String
        public var name: String
    }

    /// Work queued: texts known already, or cards read by the thread (those of a test just
    /// opened, `opening`, or that joined the open test): their entry numbers in the index the
    /// box gave, so that the box's turn makes no string per card (docs/performance.md, "Prepare").
    enum Work: Sendable {
        case jobs([Job])
        case cards(CardReader, CardIndex, [UInt32], opening: Bool)
    }

    private struct State {
        var queue: [Work] = []
        var running = false
        var stopped = false
        var problem: String?
        /// The program was not found: nothing more is tried until the daemon is restarted.
        var missing = false
        /// Speeches made, and those found made already, since the start (for `leitner-bench`).
        var made = 0
        var found = 0
    }

    public let settings: VoiceSettings
    public let cache: VoiceCache
    private let program: [String]
    private let clock: any WallClock
    private let state = Mutex(State())

    /// - Parameter settings: with a program (the box makes no maker without one).
    public init(settings: VoiceSettings, cache: VoiceCache, clock: any WallClock) {
        self.settings = settings
        self.cache = cache
        self.clock = clock
        program = (settings.program ?? "").split(separator: " ").map(String.init)
    }

    /// The job of a side's text in `voice`: its words without markup (as the learner reads
    /// them); nil for a side that is not text, or has no words.
    public func job(_ side: Side, voice: String) -> Job? {
        guard MediaType.isText(side.mediaType), let text = side.text else { return nil }
        let plain = AnswerText.plain(text, mediaType: side.mediaType).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !plain.isEmpty else { return nil }
        return Job(text: plain, voice: voice, name: VoiceCache.fileName(text: plain, voice: voice, program: settings.program ?? ""))
    }

    /// The jobs of both sides of a card with `tags`.
    func jobs(front: Side, back: Side, tags: [String]) -> [Job] {
        let voice = settings.voice(tags: tags)
        return [front, back].compactMap { job($0, voice: voice) }
    }

    /// Why speech is not made, once it was found: the program is missing or failed.
    public var problem: String? { state.withLock { $0.problem } }

    /// How many speeches were made and found made already, and whether work is queued or running.
    public var progress: (made: Int, found: Int, busy: Bool) {
        state.withLock { ($0.made, $0.found, $0.running || !$0.queue.isEmpty) }
    }

    /// Queues `work`, and starts the thread when none runs.
    func enqueue(_ work: Work) {
        enum Taken { case rejected, queued, startThread }
        let taken = state.withLock { state -> Taken in
            guard !state.stopped, !state.missing else { return .rejected }
            state.queue.append(work)
            if state.running { return .queued }
            state.running = true
            return .startThread
        }
        switch taken {
        case .rejected:
            if case .cards(let reader, _, _, _) = work { reader.close() }
            return
        case .queued:
            return
        case .startThread:
            break
        }
        if DetachedThread.start({ self.run() }) != nil {
            // No thread to be had: the speech is made when it is next asked for.
            state.withLock { $0.running = false }
            dropQueue()
        }
    }

    /// Stops after the speech being made; what is queued is dropped.
    func stop() {
        state.withLock { $0.stopped = true }
        dropQueue()
    }

    /// Empties the queue, closing the readers of the tests in it.
    private func dropQueue() {
        let dropped = state.withLock { state -> [Work] in
            let queue = state.queue
            state.queue = []
            return queue
        }
        for case .cards(let reader, _, _, _) in dropped { reader.close() }
    }

    /// The next work, or nil (and the thread is no longer running) when none is to be done.
    private func nextWork() -> Work? {
        state.withLock { state -> Work? in
            if state.queue.isEmpty || state.stopped || state.missing {
                state.running = false
                return nil
            }
            return state.queue.removeFirst()
        }
    }

    /// Whether the work is to stop: the maker stopped, or the program is missing.
    private var halted: Bool { state.withLock { $0.stopped || $0.missing } }

    /// The thread: takes work until none is left.
    private func run() {
        while let work = nextWork() {
            switch work {
            case .jobs(let jobs):
                for job in jobs {
                    if !make(job) { break }
                }
            case .cards(let reader, let index, let entries, let opening):
                var wanted = Set<String>()
                for entry in entries {
                    if halted { break }
                    // A card that has moved since is not where the test found it: it is read
                    // when it is next added, edited or in a test.
                    guard let level = index.level(ofEntry: entry) else { continue }
                    let read = reader.readSides(index.id(ofEntry: entry), in: level, withText: true)
                    guard case .success(let (front, back)) = read.sides else { continue }
                    for job in jobs(front: front, back: back, tags: read.tags.tags) {
                        if wanted.contains(job.name) { continue }
                        wanted.insert(job.name)
                        make(job)
                    }
                }
                reader.close()
                // A test's speech is made: what no test asked for in `keptFor` goes.
                if opening { cache.prune(now: clock.now(), keep: wanted) }
            }
        }
    }

    /// Makes one speech unless it is there (then marks it used).
    /// - Returns: false once the work is to stop.
    @discardableResult
    private func make(_ job: Job) -> Bool {
        if halted { return false }
        let now = clock.now()
        if cache.ready(job.name) != nil {
            try? FileSystem.setModificationTime(cache.path + "/" + job.name, in: nil, milliseconds: now)
            state.withLock { $0.found += 1 }
            return true
        }
        do {
            try makeDirectories()
            try speak(job)
            state.withLock { $0.made += 1 }
        } catch let failure as Failure {
            record(failure)
            return !failure.missing
        } catch {
            record(Failure(reason: "cannot make the speech of '\(job.text.prefix(40))' in '\(cache.path)': \(error)"))
        }
        return true
    }

    /// Starts the program, reading `input` and writing `output`.
    /// - Throws: `Failure` (missing) when it is not installed; `Errno`.
    private func start(input: FileDescriptor, output: String, voice: String) throws -> pid_t {
        let name = program.first ?? ""
        let arguments = Array(program.dropFirst()) + VoiceSettings.arguments(for: program, voice: voice, output: output)
        var pid: pid_t = 0
        var missing = false
        do {
            pid = try ChildProcess.spawn(name, arguments: arguments, searchPath: true, input: .descriptor(input.rawValue),
                                         output: .null, error: .null)
        } catch {
            if error != .noEntry { throw error }
            missing = true
        }
        // The speech is background work (R33: made ahead, no request waits for it): at the
        // lowest priority it takes no processor time a request, an import or the user's own
        // work could use. Best effort: a program that cannot be reniced runs as it is.
        if !missing { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 19) }
        if missing {
            let package = name.hasSuffix("piper") ? "piper" : name.hasSuffix("espeak") ? "espeak" : "espeak-ng"
            throw Failure(reason: "the voice program '\(name)' ([Voice] Program=) is not installed: install it (Debian: apt install \(package)), or set Program= empty for no voice",
                          missing: true)
        }
        return pid
    }

    /// Keeps the first failure, to be said once; never as a card's error.
    private func record(_ failure: Failure) {
        state.withLock { state in
            if state.problem == nil { state.problem = failure.reason }
            if failure.missing { state.missing = true }
        }
    }

    struct Failure: Error {
        var reason: String
        var missing = false
    }

    private func makeDirectories() throws(Errno) {
        var built = ""
        for part in cache.path.split(separator: "/") {
            built += "/" + part
            try FileSystem.makeDirectory(built, in: nil, mode: 0o755, existingOK: true)
        }
    }

    /// Runs the program with the text on its standard input into its temporary, checks what it
    /// wrote, syncs it and renames it into place: a file of the cache is whole or absent. The
    /// text goes through a file, not a pipe, so that the thread never blocks on a pipe the
    /// program does not read.
    private func speak(_ job: Job) throws {
        let directory = try FileDescriptor.openDirectory(cache.path)
        defer { directory.close() }
        let part = VoiceCache.temporaryName(of: job.name, holding: "wav")
        let input = VoiceCache.temporaryName(of: job.name, holding: "txt")
        let text = try FileDescriptor.open(input, relativeTo: directory, .readWrite, options: [.create, .truncate, .noFollow], mode: 0o600)
        defer {
            text.close()
            try? FileSystem.removeFile(input, in: directory)
        }
        try text.writeAll(Array(job.text.utf8) + [10])
        _ = try text.seek(to: 0)
        let pid = try start(input: text, output: cache.path + "/" + part, voice: job.voice)
        let termination = try ChildProcess.wait(for: pid)
        defer { try? FileSystem.removeFile(part, in: directory) }
        guard termination == .exited(0), VoiceCache.isSpeechFile(part, in: directory) else {
            let said = termination == .exited(0) ? "wrote no WAV speech" : String(describing: termination)
            throw Failure(reason: "the voice program '\(program.joined(separator: " "))' \(said) for '\(job.text.prefix(40))' in voice '\(job.voice.isEmpty ? "its own" : job.voice)'; its speech is left out")
        }
        let file = try FileDescriptor.open(part, relativeTo: directory, .readOnly, options: [.noFollow])
        defer { file.close() }
        try file.sync()
        try FileSystem.rename(part, in: directory, to: job.name, in: directory)
    }
}
