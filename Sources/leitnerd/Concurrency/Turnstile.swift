import Synchronization
import LeitnerSystem

/// Permits handed out in turn, first come, first served, to threads that sleep in `poll` while
/// they wait: each waiter brings its own `Wake`, which `release()` rings when it hands that
/// waiter its permits. A waiter gives up at its deadline, or when `giveUp` says so (shutdown);
/// a permit handed over at that instant is kept, never lost.
///
/// The box's one owner is a turnstile of one permit (`BoxOwner`); the budget for long messages
/// is one whose permits are bytes (`MessageBudget`).
final class Turnstile: Sendable {
    enum Outcome: Equatable {
        case acquired
        /// The deadline passed first.
        case timedOut
        /// `giveUp` said to stop waiting.
        case gaveUp
    }

    private struct Waiter {
        let ticket: Int
        let weight: Int
        let wake: Wake
    }

    private struct State {
        var available: Int
        var holders = 0
        /// In order of arrival; a waiter is served only after those before it.
        var queue: [Waiter] = []
        /// Tickets of waiters handed their permits, not yet back from `acquire`.
        var granted: Set<Int> = []
        var nextTicket = 0
    }

    private let state: Mutex<State>

    /// - Parameter capacity: the permits there are.
    init(capacity: Int) {
        state = Mutex(State(available: capacity))
    }

    /// Takes `weight` permits, waiting behind those who came first. A weight larger than the
    /// capacity is granted when nobody holds any, so that one large request always goes through.
    /// - Parameters:
    ///   - wake: the calling thread's doorbell; it may be rung for other reasons meanwhile.
    ///   - deadline: when to stop waiting; nil: no limit.
    ///   - giveUp: asked after every wake-up; true stops the wait.
    /// - Returns: `.acquired` when the permits are held: give them back with `release(weight:)`.
    func acquire(weight: Int = 1, wake: Wake, deadline: MonotonicTime? = nil,
                 giveUp: () -> Bool = { false }) -> Outcome {
        let ticket: Int? = state.withLock { state in
            if state.queue.isEmpty && (state.available >= weight || state.holders == 0) {
                state.available -= weight
                state.holders += 1
                return nil
            }
            state.nextTicket += 1
            state.queue.append(Waiter(ticket: state.nextTicket, weight: weight, wake: wake))
            return state.nextTicket
        }
        guard let ticket else { return .acquired }
        while true {
            if state.withLock({ $0.granted.remove(ticket) != nil }) { return .acquired }
            let expired = deadline.map { MonotonicTime.now >= $0 } ?? false
            if expired || giveUp() {
                let (granted, wakes) = state.withLock { state -> (Bool, [Wake]) in
                    if state.granted.remove(ticket) != nil { return (true, []) }
                    state.queue.removeAll { $0.ticket == ticket }
                    // A heavy waiter at the head may have held back lighter ones behind it.
                    return (false, Self.grantWaiting(&state))
                }
                for next in wakes { next.ring() }
                if granted { return .acquired }
                return expired ? .timedOut : .gaveUp
            }
            // Woken by a hand-over, a deadline, or a ring meant for something else: look again.
            if (try? Poll.readable([wake.descriptor], milliseconds: deadline?.millisecondsFromNow))?.first == true {
                wake.drain()
            }
        }
    }

    /// The waiters in the queue (the unit tests wait for it to know the order they came in).
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Gives back permits taken with `acquire(weight:)`, handing them to the next waiters.
    func release(weight: Int = 1) {
        let wakes = state.withLock { state -> [Wake] in
            state.available += weight
            state.holders -= 1
            return Self.grantWaiting(&state)
        }
        for next in wakes { next.ring() }
    }

    /// Hands permits to the waiters at the head of the queue while they fit.
    private static func grantWaiting(_ state: inout State) -> [Wake] {
        var wakes: [Wake] = []
        while let first = state.queue.first, state.available >= first.weight || state.holders == 0 {
            state.queue.removeFirst()
            state.available -= first.weight
            state.holders += 1
            state.granted.insert(first.ticket)
            wakes.append(first.wake)
        }
        return wakes
    }
}
