import LeitnerCore

/// The one owner of the box (STYLE §7): every call to `Box`, which is not thread-safe, runs on
/// this actor, one at a time, on a Dispatch queue of its own (`QueueExecutor`) so that the
/// box's blocking file-system calls never hold a thread of the cooperative pool.
actor BoxService {
    /// The store's path as configured (for errors that happen before the box knows it).
    nonisolated let storePath: String
    private nonisolated let executor: QueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var box: Box?
    private var options: BoxOptions
    private var hook: TestReadyHook?

    /// Opens the store: takes its lock (R19) and repairs it (R18).
    /// - Throws: `StoreLockedError` when another daemon holds the store; `BoxError`.
    init(options: BoxOptions, hook: TestReadyHook?) throws {
        executor = QueueExecutor(label: "leitnerd.box")
        storePath = options.storePath
        self.options = options
        self.hook = hook
        let opened = try Box(options: options)
        for problem in opened.openingProblems { Log.warning("\(problem.path): \(problem.reason)") }
        box = opened
    }

    /// Runs one `io.leitner.Box` method.
    func call(_ handler: BoxMethods.Handler, _ parameters: CallParameters) -> VarlinkReply {
        guard let box else {
            return ErrorReplies.reply(for: BoxError.storeFailure(path: storePath, reason: "the daemon is stopping"),
                                      storePath: storePath)
        }
        let context = BoxMethods.Context(box: box, hook: hook)
        return ErrorReplies.catching(storePath: storePath) { try handler(context, parameters) }
    }

    /// Runs one `io.leitner.Box` method from a connection's thread (not a task): waits for the
    /// box's queue, then runs the call there on the calling thread (`DispatchQueue.sync` moves
    /// no work between threads), isolated to this actor like any other call.
    nonisolated func callNow(_ handler: BoxMethods.Handler, _ parameters: CallParameters) -> VarlinkReply {
        executor.runSynchronously { assumeIsolated { $0.call(handler, parameters) } }
    }

    /// The `STATUS=` line for the service manager: "12 cards due, levels 2, 1".
    func statusLine() -> String {
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
    }

    /// Applies a reloaded configuration (SIGHUP): the hook at once; a changed schedule by
    /// reopening the box with the new options (the lock is released for that instant). If the
    /// box cannot be reopened with them, it is reopened with the old ones.
    /// - Returns: what changed, for the log.
    func reconfigure(options newOptions: BoxOptions, hook newHook: TestReadyHook?) -> [String] {
        var changes: [String] = []
        if newHook?.command != hook?.command {
            hook = newHook
            changes.append("TestReady hook")
        }
        let scheduleChanged = newOptions.cycle != options.cycle || newOptions.onFail != options.onFail
            || newOptions.dayClock.dayStartsAt != options.dayClock.dayStartsAt
        guard scheduleChanged, let current = box else { return changes }
        current.close()
        box = nil
        do {
            box = try Box(options: newOptions)
            options = newOptions
            changes.append("schedule")
        } catch {
            Log.error("cannot reopen the store with the new schedule: \(error); keeping the old one")
            do {
                box = try Box(options: options)
            } catch {
                Log.error("cannot reopen the store '\(storePath)': \(error)")
            }
        }
        return changes
    }

    /// Makes every change durable and releases the lock (shutdown). Later calls get `StoreFailure`.
    func close() {
        box?.close()
        box = nil
    }

    /// True while the box is open (a failed reopen leaves it closed: the daemon then stops).
    var isOpen: Bool { box != nil }
}
