import LeitnerCore
import LeitnerSystem

/// The `[Hooks] TestReady=` command: run through `/bin/sh -c` in the background when `Prepare`
/// opens a test that has cards (docs/protocol.md), with the test in its environment. Its failure is
/// logged, never fatal; the daemon reaps it on SIGCHLD.
struct TestReadyHook: Sendable {
    let command: String

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
            let pid = try ChildProcess.spawnShell(command, environment: Self.environment(for: test))
            Log.info("TestReady hook started (pid \(pid)) for \(test.date): \(test.remaining) cards due")
        } catch {
            Log.warning("cannot run TestReady hook '\(command)': \(error), ignoring")
        }
    }

    /// Collects every ended child and logs how each ended.
    static func reapChildren() {
        while true {
            do {
                guard let (pid, termination) = try ChildProcess.reap() else { return }
                if termination == .exited(0) {
                    Log.info("TestReady hook (pid \(pid)) \(termination)")
                } else {
                    Log.warning("TestReady hook (pid \(pid)) \(termination), ignoring")
                }
            } catch {
                Log.warning("cannot reap child processes: \(error), ignoring")
                return
            }
        }
    }
}
