import Glibc
import Synchronization
import Testing
@testable import LeitnerSystem
@testable import leitnerd

/// The daemon's concurrency pieces (docs/daemon.md, "Concurrency"): the turnstile that hands the
/// box and the long-message budget out in turn, and the stop request. The table of connections
/// is LeitnerSystem's (its tests there); its threads are tried here.
/// Threads here are real; waits are bounded, and every assertion about order waits for the state
/// it names rather than for a time.
@Suite struct TurnstileTests {
    @Test func aFreePermitIsTakenAtOnceAndABusyOneTimesOut() throws {
        let turnstile = Turnstile(capacity: 1)
        let wake = try Wake()
        #expect(turnstile.acquire(wake: wake) == .acquired)
        let started = MonotonicTime.now
        #expect(turnstile.acquire(wake: wake, deadline: .now + .milliseconds(50)) == .timedOut)
        #expect(MonotonicTime.now - started >= .milliseconds(50))
        // The waiter that timed out left the queue: the permit, given back, is free again.
        turnstile.release()
        #expect(turnstile.acquire(wake: wake, deadline: .now) == .acquired)
        turnstile.release()
    }

    @Test func giveUpEndsAWait() throws {
        let turnstile = Turnstile(capacity: 1)
        let wake = try Wake()
        #expect(turnstile.acquire(wake: wake) == .acquired)
        wake.ring()  // a ring makes the waiter look again, and ask giveUp
        #expect(turnstile.acquire(wake: wake, deadline: .now + .seconds(10), giveUp: { true }) == .gaveUp)
        turnstile.release()
    }

    @Test func aWeightLargerThanTheCapacityGoesThroughWhenNobodyHolds() throws {
        let turnstile = Turnstile(capacity: 10)
        let wake = try Wake()
        #expect(turnstile.acquire(weight: 25, wake: wake) == .acquired)
        #expect(turnstile.acquire(weight: 1, wake: wake, deadline: .now + .milliseconds(20)) == .timedOut)
        turnstile.release(weight: 25)
        #expect(turnstile.acquire(weight: 10, wake: wake, deadline: .now) == .acquired)
        turnstile.release(weight: 10)
    }

    @Test func waitersAreServedInTheOrderTheyCame() throws {
        let turnstile = Turnstile(capacity: 1)
        let main = try Wake()
        #expect(turnstile.acquire(wake: main) == .acquired)
        let order = Mutex<[Int]>([])
        for waiter in 0..<4 {
            let wake = try Wake()
            #expect(DetachedThread.start {
                if turnstile.acquire(wake: wake, deadline: .now + .seconds(30)) == .acquired {
                    order.withLock { $0.append(waiter) }
                    turnstile.release()
                }
            } == nil)
            // The next waiter starts only once this one is in the queue.
            let queued = MonotonicTime.now + .seconds(30)
            while turnstile.waiting <= waiter, MonotonicTime.now < queued { usleep(500) }
        }
        turnstile.release()
        let deadline = MonotonicTime.now + .seconds(30)
        while order.withLock({ $0.count }) < 4, MonotonicTime.now < deadline { usleep(1000) }
        #expect(order.withLock { $0 } == [0, 1, 2, 3])
    }
}

@Suite struct MessageBudgetTests {
    @Test func aShareIsTwiceTheMessageAndSmallMessagesNeedNone() {
        #expect(MessageBudget.share(maxMessageSize: 16 << 20) == 32 << 20)
        #expect(MessageBudget.unsharedLimit(maxMessageSize: 16 << 20) == MessageBudget.allowance)
        #expect(MessageBudget.unsharedLimit(maxMessageSize: 100) == 101)
    }

    @Test func oneLongMessageAtATimeWithTheDefaultLimit() throws {
        let budget = MessageBudget()
        let wake = try Wake()
        #expect(budget.acquire(maxMessageSize: 16 << 20, wake: wake, giveUp: { false }))
        wake.ring()
        #expect(!budget.acquire(maxMessageSize: 16 << 20, wake: wake, giveUp: { true }))
        budget.release(maxMessageSize: 16 << 20)
        #expect(budget.acquire(maxMessageSize: 16 << 20, wake: wake, giveUp: { false }))
        budget.release(maxMessageSize: 16 << 20)
    }
}

@Suite struct StopRequestTests {
    @Test func theFirstRequestWinsAndRingsTheListener() throws {
        let listener = try Wake()
        let request = StopRequest(listenerWake: listener)
        #expect(request.current == nil)
        request.ask(status: 0, reason: "Stop() called")
        request.ask(status: 1, reason: "the box was lost")
        #expect(request.current?.status == 0 && request.current?.reason == "Stop() called")
        #expect((try Poll.readable([listener.descriptor], milliseconds: 0)).first == true)
    }
}
