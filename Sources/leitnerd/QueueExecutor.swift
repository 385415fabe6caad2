import Dispatch

/// A serial executor backed by a Dispatch queue: the actor that owns the Box runs on it, so
/// that the Box's blocking file-system calls (fsync) occupy this queue's thread, not one of
/// the few threads of Swift's cooperative pool that serve the connections.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the only state is an immutable reference to a thread-safe queue.
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    /// Runs `body` on the queue, on the calling thread, after the jobs already enqueued;
    /// the actor's isolation holds inside (`checkIsolated`).
    func runSynchronously<T>(_ body: () -> T) -> T {
        queue.sync(execute: body)
    }

    /// Lets `assumeIsolated` accept a thread that runs inside `runSynchronously`.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
