import Glibc
import Synchronization

#if LEITNER_TEST_HOOKS
/// A simulated crash for the atomicity tests (R18): armed with a number N, the N-th mutating
/// system call from then on fails, and so does every mutating call after it, as if the process
/// had been killed between two steps — on the thread that armed it only, and until that thread
/// disarms it. Tests of several suites arm it at the same time on their own threads, so each
/// thread has a countdown of its own. Disarmed everywhere (the default) it costs one atomic load
/// per call.
public enum CrashPoint {
    /// Threads with a countdown: the fast path's only check.
    private static let armedThreads = Atomic<Int>(0)
    /// Thread → steps left before its crash; 0 once crashed.
    private static let countdowns = Mutex<[UInt: Int]>([:])

    /// The error a simulated crash makes mutating calls fail with.
    public static let crashed = Errno(rawValue: -1)

    /// Arms the crash, on this thread, after `steps` mutating system calls (the call numbered
    /// `steps` fails).
    public static func arm(after steps: Int) {
        let thread = UInt(pthread_self())
        countdowns.withLock { table in
            if table.updateValue(steps, forKey: thread) == nil {
                armedThreads.add(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// Disarms it on this thread.
    public static func disarm() {
        let thread = UInt(pthread_self())
        countdowns.withLock { table in
            if table.removeValue(forKey: thread) != nil {
                armedThreads.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// True while a crash is armed on this thread: work it would hand to another thread is done
    /// on this one instead, so that every step of it is counted (`CardMoves`).
    public static var isArmed: Bool {
        armedThreads.load(ordering: .relaxed) != 0 && countdowns.withLock { $0[UInt(pthread_self())] != nil }
    }

    /// True once the crash armed on this thread has happened.
    public static var hasCrashed: Bool {
        countdowns.withLock { $0[UInt(pthread_self())] == 0 }
    }

    /// Called by every mutating system call before it runs.
    @inline(__always)
    static func step() throws(Errno) {
        if armedThreads.load(ordering: .relaxed) == 0 { return }
        let thread = UInt(pthread_self())
        let crashes = countdowns.withLock { table -> Bool in
            guard let left = table[thread] else { return false }
            if left <= 1 {
                table[thread] = 0
                return true
            }
            table[thread] = left - 1
            return false
        }
        if crashes { throw crashed }
    }
}
#else
/// Without the `TestHooks` trait the hook is compiled away: nothing is ever simulated.
package enum CrashPoint {
    @inline(__always)
    static func step() throws(Errno) {}
    @inline(__always)
    package static var isArmed: Bool { false }
}
#endif
