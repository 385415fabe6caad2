import Glibc
import Synchronization

/// A simulated crash for the atomicity tests (R18): armed with a number N, the N-th mutating
/// system call from then on fails, and so does every mutating call after it, as if the process
/// had been killed between two steps — on the thread that armed it only. Disarmed (the default)
/// it costs one atomic load per call.
public enum CrashPoint {
    /// Steps left before the crash; -1 when disarmed; 0 once crashed.
    private static let countdown = Atomic<Int>(-1)
    /// The thread that armed it: only its calls crash. Tests of other suites run in parallel in
    /// the same process and must not see another test's crash.
    private static let armedThread = Atomic<UInt>(0)

    /// The error a simulated crash makes mutating calls fail with.
    public static let crashed = Errno(rawValue: -1)

    /// Arms the crash after `steps` mutating system calls (the call numbered `steps` fails).
    public static func arm(after steps: Int) {
        armedThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        countdown.store(steps, ordering: .sequentiallyConsistent)
    }

    /// Disarms it.
    public static func disarm() { countdown.store(-1, ordering: .sequentiallyConsistent) }

    /// True once the armed crash has happened.
    public static var hasCrashed: Bool { countdown.load(ordering: .sequentiallyConsistent) == 0 }

    /// Called by every mutating system call before it runs.
    @inline(__always)
    static func step() throws(Errno) {
        let left = countdown.load(ordering: .relaxed)
        if left < 0 || armedThread.load(ordering: .relaxed) != UInt(pthread_self()) { return }
        if left == 0 { throw crashed }
        if countdown.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue == 0 { throw crashed }
    }
}
