import Dispatch
import LeitnerCore
import Synchronization

/// Awaits the readiness of a non-blocking descriptor (the listener) to read through one
/// Dispatch source kept for the descriptor's life: the source is suspended between waits, so a
/// wait costs a resume and an event, not a new registration. One waiter at a time.
///
/// The descriptor is closed by `close()`, from the source's cancel handler: Dispatch requires
/// that a descriptor outlive its source.
final class Readiness: @unchecked Sendable {
    // @unchecked: Dispatch sources may be resumed, suspended and cancelled from any thread;
    // every mutable field is behind `state`.
    enum Outcome: Equatable {
        /// The descriptor is ready (or has an error or end of file to report).
        case ready
        /// The wait's timeout passed first.
        case timedOut
        /// The waiting task was cancelled, or `interrupt()` was called.
        case interrupted
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        /// Counts waits, so that a timer of an earlier wait does not end a later one.
        var generation = 0
        var activated = false
        var running = false
        var interrupted = false
        var closed = false
    }

    /// The one queue every readiness source and timer of the daemon runs its (tiny) handlers on.
    static let queue = DispatchQueue(label: "leitnerd.io")

    private let source: any DispatchSourceProtocol
    private let state = Mutex(State())

    /// - Parameter descriptor: a non-blocking descriptor; this object closes it (`close()`).
    init(_ descriptor: FileDescriptor) {
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor.rawValue, queue: Self.queue)
        source.setEventHandler { [weak self] in self?.finish(.ready, generation: nil) }
        source.setCancelHandler { descriptor.close() }
    }

    /// Waits until the descriptor is ready, the timeout passes, or the task is cancelled (or
    /// `interrupt()` is called, before or during the wait).
    func wait(timeout: Duration? = nil) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let generation: Int? = state.withLock { state in
                    if state.interrupted || state.closed || Task.isCancelled {
                        continuation.resume(returning: .interrupted)
                        return nil
                    }
                    precondition(state.continuation == nil, "two waits on one descriptor")
                    state.continuation = continuation
                    state.generation += 1
                    if !state.activated {
                        state.activated = true
                        state.running = true
                        source.activate()
                    } else if !state.running {
                        state.running = true
                        source.resume()
                    }
                    return state.generation
                }
                if let generation, let timeout {
                    let nanoseconds = timeout.components.seconds * 1_000_000_000
                        + timeout.components.attoseconds / 1_000_000_000
                    Self.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [weak self] in
                        self?.finish(.timedOut, generation: generation)
                    }
                }
            }
        } onCancel: {
            interrupt()
        }
    }

    /// Ends the current wait, and every later one, with `.interrupted` (shutdown).
    func interrupt() {
        state.withLock { $0.interrupted = true }
        finish(.interrupted, generation: nil)
    }

    /// Stops watching the descriptor and closes it.
    func close() {
        let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            source.cancel()
            // A cancelled source delivers its cancel handler only once active and running.
            if !state.activated { source.activate() } else if !state.running { source.resume() }
            state.running = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: .interrupted)
    }

    /// Resumes the waiter (if it is the wait `generation`, when given) and parks the source.
    private func finish(_ outcome: Outcome, generation: Int?) {
        let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
            guard let continuation = state.continuation else { return nil }
            if let generation, generation != state.generation { return nil }
            state.continuation = nil
            if state.running && !state.closed {
                state.running = false
                source.suspend()
            }
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}
