import Glibc
import LeitnerCore
import LeitnerSystem
import Synchronization

/// The `[Hooks] TestReady=` command: run through `/bin/sh -c` in the background when `Prepare`
/// opens a test that has cards (docs/protocol.md), with the test in its environment. Its failure is
/// logged, never fatal; the daemon reaps it on SIGCHLD.
struct TestReadyHook: Sendable {
    let command: String

    /// The hooks started and not yet reaped: only these are reaped here, as the voice's
    /// program (R33) is another child, waited for by the thread that runs it.
    private static let running = Mutex<Set<pid_t>>([])

    /// The environment the hook sees: the date, the number of cards due and the levels.
    static func environment(for test: TestSummary) -> [String: String] {
        [
            "LEITNER_DATE": test.date.description,
            "LEITNER_DUE": String(test.remaining),
            "LEITNER_LEVELS": test.levels.map(\.name).joined(separator: " "),
        ]
    }

    /// Starts the hook for `test`; does not wait.
    func start(for test: TestSummary) {
        do {
            // Started under the lock: a SIGCHLD handled meanwhile finds it among the running.
            let pid = try Self.running.withLock { running throws(Errno) -> pid_t in
                let pid = try ChildProcess.spawnShell(command, environment: Self.environment(for: test))
                running.insert(pid)
                return pid
            }
            Log.info("TestReady hook started (pid \(pid)) for \(test.date): \(test.remaining) cards due")
        } catch {
            Log.warning("cannot run TestReady hook '\(command)': \(error), ignoring")
        }
    }

    /// Collects every hook that has ended and logs how each ended.
    static func reapChildren() {
        for pid in running.withLock({ $0 }) {
            do {
                guard let termination = try ChildProcess.reap(pid) else { continue }
                running.withLock { _ = $0.remove(pid) }
                if termination == .exited(0) {
                    Log.info("TestReady hook (pid \(pid)) \(termination)")
                } else {
                    Log.warning("TestReady hook (pid \(pid)) \(termination), ignoring")
                }
            } catch {
                running.withLock { _ = $0.remove(pid) }
                Log.warning("cannot reap the TestReady hook (pid \(pid)): \(error), ignoring")
            }
        }
    }
}
