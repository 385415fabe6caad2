import LeitnerVarlink
import Synchronization
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// The one owner of the box (docs/daemon.md, "Concurrency"): `Box` is not thread-safe, so a
/// thread works on it only while it holds the single permit of `turn`, taken first come, first
/// served. A connection's thread runs its call itself once its turn comes: a request never
/// moves between threads. A call waits at most `waitLimit` for its turn, so that one call stuck
/// in the kernel (a hung disk) costs the others a bounded wait and a clear error, not a hang.
final class BoxOwner: @unchecked Sendable {
    // @unchecked: `box`, `options`, `hook` and `closedReason` are read and written only by the
    // thread that holds the permit of `turn`; the turnstile's lock orders one holder's accesses
    // before the next holder's.

    /// How long a call waits for its turn before it is answered "busy".
    static let waitLimit: Duration = .seconds(5)

    /// The store's path as configured (for errors that happen before the box knows it).
    let storePath: String
    /// The box's write-ahead journal, for the error when it cannot be synced.
    let journalPath: String
    /// How often the server calls `tick` (ms).
    let tickInterval: Int64

    private let turn = Turnstile(capacity: 1)
    /// The replies waiting for the journal share its flushes.
    private let commits = GroupCommit()
    /// The journal whose failed sync the log was told of, so that it is told once, not at every
    /// call answered with it after.
    private let syncFailureLogged = Mutex<ObjectIdentifier?>(nil)
    /// When the current holder took its turn, to say in a "busy" reply how long it has held it.
    private let heldSince = Mutex<MonotonicTime?>(nil)
    /// The index builds connection threads run off the turn, to stop them when the daemon stops;
    /// `stopping` once it has, so that no call begins another.
    private let builds = Mutex<(running: [ObjectIdentifier: IndexBuild], stopping: Bool)>(([:], false))

    private var box: Box?
    private var options: BoxOptions
    private var hook: TestReadyHook?
    /// Why there is no box: the daemon is stopping, or the store could not be reopened.
    private var closedReason = "the daemon is stopping"

    /// Opens the store: takes its lock (R19) and repairs it (R18).
    /// - Throws: `StoreLockedError` when another daemon holds the store; `BoxError`.
    init(options: BoxOptions, hook: TestReadyHook?) throws {
        storePath = options.storePath
        self.options = options
        self.hook = hook
        let opened = try Box(options: options)
        journalPath = opened.journalPath
        tickInterval = opened.tickInterval
        for problem in opened.openingProblems { Log.warning("\(problem.path): \(problem.reason)") }
        box = opened
    }

    /// Runs `body` while holding the box, after waiting for its turn (until `deadline`).
    /// - Returns: nil when the turn did not come in time, or `giveUp` said to stop waiting.
    private func withTurn<T>(wake: Wake, deadline: MonotonicTime?, giveUp: () -> Bool = { false },
                             _ body: () -> T) -> T? {
        guard turn.acquire(wake: wake, deadline: deadline, giveUp: giveUp) == .acquired else { return nil }
        heldSince.withLock { $0 = .now }
        defer {
            // Whatever the turn did, the cards that joined the open test are spoken ahead (R33).
            box?.speakJoined()
            heldSince.withLock { $0 = nil }
            turn.release()
        }
        return body()
    }

    /// Runs one `io.leitner.Box` method on the calling thread, once it is its turn (`run`).
    func call(_ handler: BoxMethods.Handler, _ parameters: CallParameters, wake: Wake) -> VarlinkReply {
        switch run(wake: wake, { context in try handler(context, parameters) }) {
        case .success(let output): VarlinkReply(parameters: output)
        case .failure(let error): error.reply
        }
    }

    /// Runs `body` with the box on the calling thread, once it is its turn: a call, the start of
    /// a streamed one, or one batch of its items (`StreamedReply`). Its error becomes the
    /// reply's; a turn that does not come within `waitLimit` is `StoreFailure` "busy".
    ///
    /// The result is handed back only once every journal record the box had written when it was
    /// made is on disk (R17): its own change, and any other it may show. That wait is after the
    /// box is let go, so that other calls write their records meanwhile and share the flush
    /// (`GroupCommit`).
    ///
    /// A call that needs the search index or the tag table while there is none fails, having
    /// changed nothing, and names the build it waits for: the thread runs that build, or waits for
    /// the one running it, without holding the box (docs/daemon.md, "Indexes built off the
    /// turn"), then makes the call again.
    func run<T>(wake: Wake, _ body: (BoxMethods.Context) throws -> T) -> Result<T, ErrorReply> {
        // Before any build the call waits for: what that build looked at after it is current for it.
        let began = MonotonicTime.now
        while true {
            let answer = withTurn(wake: wake, deadline: .now + Self.waitLimit) { () -> (Result<T, ErrorReply>, CommitPoint?, IndexBuild?) in
                guard let box else {
                    return (.failure(ErrorReply(reply: ErrorReplies.reply(for: BoxError.storeFailure(path: storePath, reason: closedReason),
                                                                          storePath: storePath))), nil, nil)
                }
                box.callBegan = began
                defer { box.callBegan = nil }
                // Said once, when it first happens (the watches running out).
                defer { for warning in box.takeWarnings() { Log.warning(warning) } }
                do {
                    return (.success(try body(BoxMethods.Context(box: box, hook: hook))), box.commitPoint, nil)
                } catch {
                    return (.failure(ErrorReply(reply: ErrorReplies.reply(for: error, storePath: storePath))), box.commitPoint,
                            box.takeAwaitedBuild())
                }
            }
            guard let build = answer?.2 else { return finish(answer.map { ($0.0, $0.1) }, wake: wake) }
            if !runOrWait(build, wake: wake) {
                return .failure(ErrorReply(reply: ErrorReplies.reply(for: BoxError.storeFailure(path: storePath, reason: "the daemon is stopping"),
                                                                     storePath: storePath)))
            }
        }
    }

    /// Runs an index build on the calling thread, or waits until the thread running it is done.
    /// - Returns: false when the daemon is stopping: the call is not made again.
    private func runOrWait(_ build: IndexBuild, wake: Wake) -> Bool {
        switch build.join(ring: { wake.ring() }) {
        case .build:
            let key = ObjectIdentifier(build)
            let stopping = builds.withLock { builds -> Bool in
                builds.running[key] = build
                return builds.stopping
            }
            if stopping { build.stop() }
            build.run()
            builds.withLock { _ = $0.running.removeValue(forKey: key) }
        case .wait:
            // A ring meant for something else (the daemon stopping) only makes this look again:
            // the build gives up within moments then.
            while !build.isDone {
                if (try? Poll.readable([wake.descriptor], milliseconds: nil))?.first == true { wake.drain() }
            }
        case .done:
            break
        }
        return !builds.withLock { $0.stopping }
    }

    /// Begins the search index's build off the turn when the store was searched before
    /// (`Box.buildSearchIndexAhead`), so that the first search finds it built or under way. The
    /// box stops it when it closes.
    func buildSearchIndexAhead(wake: Wake) {
        _ = withTurn(wake: wake, deadline: nil) { box?.buildSearchIndexAhead() }
    }

    /// Stops the index builds under way, and keeps calls from beginning others: the daemon is
    /// stopping, and the calls in flight are to end within its limit.
    func stopIndexBuilds() {
        let running = builds.withLock { builds -> [IndexBuild] in
            builds.stopping = true
            return Array(builds.running.values)
        }
        for build in running { build.stop() }
    }

    /// The reply `run` hands back: after the wait for the journal, when the call wrote to it.
    private func finish<T>(_ answer: (Result<T, ErrorReply>, CommitPoint?)?, wake: Wake) -> Result<T, ErrorReply> {
        if let (result, point) = answer {
            guard let point else { return result }
            do throws(Errno) { try commits.waitUntilDurable(point, wake: wake) } catch {
                let journal = journalPath
                // Said once a journal: every call after it is answered the same.
                let first = syncFailureLogged.withLock { logged in
                    defer { logged = ObjectIdentifier(point.file) }
                    return logged != ObjectIdentifier(point.file)
                }
                if first { Log.error("cannot sync '\(journal)': \(error); changes are refused until the daemon is restarted") }
                return .failure(ErrorReply(reply: ErrorReplies.reply(for: BoxError.journalSyncFailed(journal, error),
                                                                     storePath: storePath)))
            }
            return result
        }
        let held = heldSince.withLock { $0 }.map { MonotonicTime.now - $0 } ?? Self.waitLimit
        let reason = "the store is busy: another call has been running for \(held.logDescription)"
        Log.warning("a call waited \(Self.waitLimit.logDescription) for the store: \(reason), answered busy")
        return .failure(ErrorReply(reply: ErrorReplies.reply(for: BoxError.storeFailure(path: storePath, reason: reason),
                                                             storePath: storePath)))
    }

    /// Takes in what changed in the store while no call came (a sync tool's work), so that a card
    /// a sync left in two levels is settled once the store is quiet even when nobody asks
    /// (docs/sync.md). Skipped when a call holds the box: that call does the same.
    func tick(wake: Wake) {
        _ = withTurn(wake: wake, deadline: .now) {
            // A failure here is the store's, and the next call reports it with its reason.
            try? box?.tick()
        }
    }

    /// The `STATUS=` line for the service manager: "12 cards due, levels 2, 1".
    func statusLine(wake: Wake) -> String {
        withTurn(wake: wake, deadline: .now + Self.waitLimit) { () -> String in
            guard let box else { return "stopping" }
            do {
                let status = try box.status()
                let levels = status.test.levels.map(\.name).joined(separator: ", ")
                switch status.test.state {
                case .completed: return "today's test is completed (levels \(levels))"
                case .open, .empty: return "\(status.test.remaining) cards due, levels \(levels)"
                }
            } catch {
                return "store problem: \(error)"
            }
        } ?? "the store is busy"
    }

    /// What a reconfiguration did.
    enum Reconfiguration {
        /// Applied: what changed, for the log.
        case applied([String])
        /// The daemon began stopping before it was the reload's turn.
        case abandoned
        /// The box could be reopened neither with the new options nor with the old ones: the
        /// daemon cannot serve and must stop; the message says why.
        case lost(String)
    }

    /// Applies a reloaded configuration (SIGHUP): the hook at once; a changed schedule by
    /// reopening the box with the new options (the store lock is released for that instant). If
    /// the box cannot be reopened with them, it is reopened with the old ones; if that fails too,
    /// calls are answered `StoreFailure` with the reason until the daemon has stopped.
    /// Waits for its turn as long as it takes, unless `giveUp` says the daemon is stopping.
    func reconfigure(options newOptions: BoxOptions, hook newHook: TestReadyHook?, wake: Wake,
                     giveUp: () -> Bool) -> Reconfiguration {
        withTurn(wake: wake, deadline: nil, giveUp: giveUp) { () -> Reconfiguration in
            var changes: [String] = []
            if newHook?.command != hook?.command {
                hook = newHook
                changes.append("TestReady hook")
            }
            let scheduleChanged = newOptions.cycle != options.cycle || newOptions.onFail != options.onFail
                || newOptions.dayClock.dayStartsAt != options.dayClock.dayStartsAt
            guard scheduleChanged, let current = box else { return .applied(changes) }
            current.close()
            box = nil
            do {
                box = try Box(options: newOptions)
                options = newOptions
                changes.append("schedule")
                return .applied(changes)
            } catch {
                Log.error("cannot reopen the store '\(storePath)' with the new schedule: \(error); keeping the old one")
            }
            do {
                box = try Box(options: options)
                return .applied(changes)
            } catch {
                closedReason = "cannot reopen the store: \(error); the daemon is stopping"
                return .lost("cannot reopen the store '\(storePath)': \(error)")
            }
        } ?? .abandoned
    }

    /// Makes every change durable and releases the lock (shutdown), once it is its turn; later
    /// calls get `StoreFailure`.
    /// - Returns: false when a call still held the box at `deadline`: the box is left as it is.
    func close(wake: Wake, deadline: MonotonicTime?) -> Bool {
        let closed: Void? = withTurn(wake: wake, deadline: deadline) {
            box?.close()
            box = nil
        }
        return closed != nil
    }
}
