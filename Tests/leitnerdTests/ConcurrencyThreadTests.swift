import Glibc
import Synchronization
import Testing
@testable import LeitnerSystem
@testable import leitnerd

// The concurrency pieces with the threads they are for: threads that compete for the long-message
// budget, a connection's thread asked to make room or to stop while it waits idle, threads asking
// the listener to stop at once. The test meets its threads as the daemon's threads meet: state
// behind a lock and a doorbell rung after each change (`Rendezvous`), never a sleep. Waits are
// bounded only so that a broken piece fails the test rather than hang it.

/// State shared by a test and its threads; whoever changes it rings every thread waiting for it,
/// and a waiter looks again after each ring. A waiter is added under the lock it checks the state
/// under, so a change made between its look and its sleep still wakes it.
final class Rendezvous<State: Sendable>: Sendable {
    private struct Shared {
        var state: State
        var waiters: [ObjectIdentifier: Wake] = [:]
    }

    private let shared: Mutex<Shared>

    init(_ state: State) {
        shared = Mutex(Shared(state: state))
    }

    func update(_ change: (inout State) -> Void) {
        let wakes = shared.withLock { shared -> [Wake] in
            change(&shared.state)
            return Array(shared.waiters.values)
        }
        for wake in wakes { wake.ring() }
    }

    func read<T: Sendable>(_ body: (State) -> T) -> T {
        shared.withLock { body($0.state) }
    }

    /// Sleeps on the caller's own doorbell until `condition` holds.
    /// - Returns: false when it did not hold within `limit`: the piece under test is broken.
    func wait(with wake: Wake, limit: Duration = .seconds(30), until condition: (State) -> Bool) -> Bool {
        let id = ObjectIdentifier(wake)
        defer { shared.withLock { _ = $0.waiters.removeValue(forKey: id) } }
        let deadline = MonotonicTime.now + limit
        while true {
            let holds = shared.withLock { shared -> Bool in
                if condition(shared.state) { return true }
                shared.waiters[id] = wake
                return false
            }
            if holds { return true }
            if MonotonicTime.now >= deadline { return false }
            if (try? Poll.readable([wake.descriptor], milliseconds: deadline.millisecondsFromNow))?.first == true {
                wake.drain()
            }
        }
    }
}

/// Starts `body` on a thread of its own, as the daemon starts a connection's.
func startThread(_ body: @escaping @Sendable () -> Void) {
    #expect(DetachedThread.start(body) == nil, "no thread")
}

/// Sleeps on `wake` until `condition` holds, for a piece that rings `wake` after each change (the
/// connection table rings the listener's doorbell when a connection leaves).
func wait(on wake: Wake, until condition: () -> Bool) -> Bool {
    let deadline = MonotonicTime.now + .seconds(30)
    while !condition() {
        if MonotonicTime.now >= deadline { return false }
        if (try? Poll.readable([wake.descriptor], milliseconds: deadline.millisecondsFromNow))?.first == true {
            wake.drain()
        }
    }
    return true
}

extension MessageBudgetTests {
    /// A connection's thread waiting for a long message's share: it says when it is queued, then
    /// takes the share (unless `giveUp`), gives it back, and says whether it had it.
    static func waitForShare(of budget: MessageBudget, limit: Int, as name: String, wake: Wake,
                             steps: Rendezvous<[String]>, giveUp: @escaping @Sendable () -> Bool) {
        startThread {
            var queued = false
            // `giveUp` is asked once the waiter is in the queue, before it first sleeps: the
            // test learns from it that the thread waits.
            let acquired = budget.acquire(maxMessageSize: limit, wake: wake, giveUp: {
                if !queued {
                    queued = true
                    steps.update { $0.append("\(name) waiting") }
                }
                return giveUp()
            })
            if acquired { budget.release(maxMessageSize: limit) }
            steps.update { $0.append("\(name) " + (acquired ? "acquired" : "gave up")) }
        }
    }

    /// With the default limit a share is the whole pool: a second long message waits for the
    /// first one's share, and has it as soon as it is given back.
    @Test func aSecondLongMessageWaitsForTheFirstShare() throws {
        let budget = MessageBudget()
        let limit = 16 << 20
        let main = try Wake(), other = try Wake()
        #expect(budget.acquire(maxMessageSize: limit, wake: main, giveUp: { false }))
        let steps = Rendezvous<[String]>([])
        Self.waitForShare(of: budget, limit: limit, as: "other", wake: other, steps: steps) { false }
        try #require(steps.wait(with: main) { !$0.isEmpty })
        #expect(steps.read { $0 } == ["other waiting"])
        budget.release(maxMessageSize: limit)
        #expect(steps.wait(with: main) { $0.count == 2 })
        #expect(steps.read { $0 } == ["other waiting", "other acquired"])
        // Given back, the whole pool is free again.
        #expect(budget.acquire(maxMessageSize: limit, wake: main, giveUp: { true }))
        budget.release(maxMessageSize: limit)
    }

    /// Shares are bytes of one pool: as many shares of a small limit as fit are had at once,
    /// and one more waits until one is given back.
    @Test func asManySharesAsFitInThePoolAreHeldAtOnce() throws {
        let budget = MessageBudget()
        let wake = try Wake()
        let limit = 1 << 20
        let fit = MessageBudget.pool / MessageBudget.share(maxMessageSize: limit)
        #expect(fit == 16)
        // `giveUp` true: had at once, or not at all.
        for _ in 0..<fit { #expect(budget.acquire(maxMessageSize: limit, wake: wake, giveUp: { true })) }
        #expect(!budget.acquire(maxMessageSize: limit, wake: wake, giveUp: { true }))
        budget.release(maxMessageSize: limit)
        #expect(budget.acquire(maxMessageSize: limit, wake: wake, giveUp: { true }))
        for _ in 0..<fit { budget.release(maxMessageSize: limit) }
    }

    /// A connection that stops waiting (the daemon is stopping) leaves the queue: the share
    /// goes to the one that came after it, and nothing is lost.
    @Test func aWaiterThatGivesUpLeavesTheShareToTheNext() throws {
        let budget = MessageBudget()
        let limit = 16 << 20
        let main = try Wake(), first = try Wake(), second = try Wake()
        #expect(budget.acquire(maxMessageSize: limit, wake: main, giveUp: { false }))
        let stopping = Atomic(false)
        let steps = Rendezvous<[String]>([])
        // Whatever fails, no waiter outlives the test.
        let testOver = Atomic(false)
        defer {
            testOver.store(true, ordering: .releasing)
            stopping.store(true, ordering: .releasing)
            first.ring()
            second.ring()
        }
        Self.waitForShare(of: budget, limit: limit, as: "first", wake: first, steps: steps) {
            stopping.load(ordering: .acquiring)
        }
        try #require(steps.wait(with: main) { $0.contains("first waiting") })
        // The second only once the first is queued, so that it is behind it.
        Self.waitForShare(of: budget, limit: limit, as: "second", wake: second, steps: steps) {
            testOver.load(ordering: .acquiring)
        }
        try #require(steps.wait(with: main) { $0.contains("second waiting") })
        stopping.store(true, ordering: .releasing)
        first.ring()
        try #require(steps.wait(with: main) { $0.contains("first gave up") })
        budget.release(maxMessageSize: limit)
        #expect(steps.wait(with: main) { $0.contains("second acquired") })
        #expect(steps.read { $0 } == ["first waiting", "second waiting", "first gave up", "second acquired"])
    }

    /// Threads taking and giving back long-message shares as fast as they can: shares that do
    /// not fit in the pool together are never held together, and every thread is served.
    @Test func competingThreadsNeverHoldMoreThanThePool() throws {
        let budget = MessageBudget()
        // A share of 20 MiB: one fits in the 32 MiB pool, two do not.
        let limit = 10 << 20
        let threads = 3, rounds = 200
        let held = Mutex((now: 0, most: 0))
        let finished = Rendezvous(0)
        let wakes = try (0..<threads).map { _ in try Wake() }
        for wake in wakes {
            startThread {
                for _ in 0..<rounds {
                    guard budget.acquire(maxMessageSize: limit, wake: wake, giveUp: { false }) else { break }
                    held.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                    // Holding the share a little while lets the others queue behind it.
                    sched_yield()
                    held.withLock { $0.now -= 1 }
                    budget.release(maxMessageSize: limit)
                }
                finished.update { $0 += 1 }
            }
        }
        let main = try Wake()
        #expect(finished.wait(with: main) { $0 == threads })
        #expect(held.withLock { $0.most } == 1)
    }
}

/// The daemon's table of connections (`ConnectionTable`, LeitnerSystem) with real threads doing
/// what a connection's thread does.
@Suite struct ConnectionTableThreadTests {
    typealias PeerTable = ConnectionTable<Socket.PeerCredentials>
    static let peer = Socket.PeerCredentials(pid: 1, uid: 0, gid: 0)

    /// What a connection's thread does while idle (`Connection.waitWhileIdle`): parks, sleeps on
    /// its doorbell, unparks; then leaves the table. Its steps go to `steps`.
    static func serveIdle(_ entry: PeerTable.Entry, in table: PeerTable, steps: Rendezvous<[String]>) {
        startThread {
            let parked = table.park(entry)
            steps.update { $0.append("\(entry.number) parked: \(parked)") }
            if parked == .serve {
                let woken = (try? Poll.readable([entry.wake.descriptor], milliseconds: 30_000))?.first == true
                let unparked = table.unpark(entry)
                steps.update { $0.append("\(entry.number) " + (woken ? "woken" : "not woken") + ", unparked: \(unparked)") }
            }
            table.remove(entry)
        }
    }

    /// At `MaxConnections=`, a new connection takes the place of one whose thread waits idle:
    /// that thread is woken, told to make room, and leaves; the listener hears of it.
    @Test func anIdleConnectionsThreadIsWokenToMakeRoom() throws {
        let listener = try Wake(), main = try Wake()
        let table = PeerTable(listenerWake: listener)
        guard case .admitted(let first, nil) = table.admit(peer: Self.peer, limit: 1, wake: try Wake()) else {
            Issue.record("the first was not admitted")
            return
        }
        let steps = Rendezvous<[String]>([])
        Self.serveIdle(first, in: table, steps: steps)
        try #require(steps.wait(with: main) { !$0.isEmpty })
        #expect(steps.read { $0 } == ["1 parked: serve"])
        guard case .admitted(let second, let replaced?) = table.admit(peer: Self.peer, limit: 1, wake: try Wake()) else {
            Issue.record("the idle connection did not make room")
            return
        }
        #expect(replaced.number == first.number)
        #expect(steps.wait(with: main) { $0.count == 2 })
        #expect(steps.read { $0 } == ["1 parked: serve", "1 woken, unparked: makeRoom"])
        #expect(wait(on: listener) { table.count == 1 })
        #expect(table.park(second) == .serve)
    }

    /// A connection's thread goes idle and busy again as fast as it can while the listener
    /// admits a new one: the listener takes its place only while it is idle, so its thread
    /// learns it when it unparks, before reading anything more, never when it parks after a
    /// call.
    @Test func aConnectionIsClosedToMakeRoomOnlyWhileIdle() throws {
        let listener = try Wake(), main = try Wake()
        let table = PeerTable(listenerWake: listener)
        guard case .admitted(let first, nil) = table.admit(peer: Self.peer, limit: 1, wake: try Wake()) else {
            Issue.record("the first was not admitted")
            return
        }
        let end = Rendezvous<String?>(nil)
        startThread {
            var ending = "still serving"
            // Bounded, so that a table that never asks it to leave fails the test.
            for _ in 0..<10_000_000 {
                let parked = table.park(first)
                if parked != .serve {
                    ending = "parked: \(parked)"
                    break
                }
                let unparked = table.unpark(first)
                if unparked != .serve {
                    ending = "unparked: \(unparked)"
                    break
                }
            }
            table.remove(first)
            end.update { $0 = ending }
        }
        let spare = try Wake()
        var admission: PeerTable.Admission = .full
        // Refused (`full`) while the connection is busy; its thread is idle half its time.
        while case .full = admission, end.read({ $0 == nil }) {
            admission = table.admit(peer: Self.peer, limit: 1, wake: spare)
        }
        guard case .admitted(_, let replaced) = admission else {
            Issue.record("never admitted: \(end.read { $0 } ?? "")")
            return
        }
        #expect(replaced?.number == first.number)
        #expect(end.wait(with: main) { $0 != nil })
        #expect(end.read { $0 } == "unparked: makeRoom")
        #expect(wait(on: listener) { table.count == 1 })
    }

    /// At shutdown every connection's thread waiting idle is woken, told to stop, and leaves;
    /// the table is then empty.
    @Test func everyIdleThreadIsWokenToStop() throws {
        let listener = try Wake(), main = try Wake()
        let table = PeerTable(listenerWake: listener)
        let steps = Rendezvous<[String]>([])
        var entries: [PeerTable.Entry] = []
        for _ in 0..<3 {
            guard case .admitted(let entry, nil) = table.admit(peer: Self.peer, limit: 8, wake: try Wake()) else {
                Issue.record("not admitted")
                return
            }
            entries.append(entry)
            Self.serveIdle(entry, in: table, steps: steps)
        }
        try #require(steps.wait(with: main) { $0.count == 3 })
        table.stop(deadline: .now + .seconds(5))
        #expect(steps.wait(with: main) { $0.count == 6 })
        #expect(wait(on: listener) { table.count == 0 })
        let seen = steps.read { $0 }
        for entry in entries {
            #expect(seen.filter { $0.hasPrefix("\(entry.number) ") } == ["\(entry.number) parked: serve",
                                                                        "\(entry.number) woken, unparked: stop"])
        }
        #expect(table.emptyFor != nil)
    }
}

extension StopRequestTests {
    /// Several threads ask at once while the listener waits on its doorbell: the listener is
    /// woken, rung once, and sees one whole request (a status with its own reason) that no
    /// later request replaces.
    @Test func theListenerSeesOneRequestWhenManyAskAtOnce() throws {
        let listenerWake = try Wake(), main = try Wake()
        let request = StopRequest(listenerWake: listenerWake)
        let seen = Rendezvous<(rings: UInt64, status: Int32, reason: String)?>(nil)
        let started = Rendezvous(false)
        startThread {
            // The listener, as `Server.run`: sleeps on its doorbell, then reads the request.
            started.update { $0 = true }
            guard (try? Poll.readable([listenerWake.descriptor], milliseconds: 30_000))?.first == true else {
                seen.update { $0 = (0, -1, "not woken") }
                return
            }
            var rings: UInt64 = 0
            _ = read(listenerWake.descriptor.rawValue, &rings, 8)
            let current = request.current
            seen.update { $0 = (rings, current?.status ?? -1, current?.reason ?? "none") }
        }
        try #require(started.wait(with: main) { $0 })
        let askers = 4
        let go = Rendezvous(false), asked = Rendezvous(0)
        let wakes = try (0..<askers).map { _ in try Wake() }
        for (index, wake) in wakes.enumerated() {
            startThread {
                // Every asker waits at the gate, so that they ask together.
                _ = go.wait(with: wake) { $0 }
                request.ask(status: Int32(index + 1), reason: "asker \(index + 1)")
                asked.update { $0 += 1 }
            }
        }
        go.update { $0 = true }
        #expect(asked.wait(with: main) { $0 == askers })
        #expect(seen.wait(with: main) { $0 != nil })
        let listener = try #require(seen.read { $0 })
        #expect(listener.rings == 1)
        #expect((1...Int32(askers)).contains(listener.status))
        #expect(listener.reason == "asker \(listener.status)")
        // No later request rang again or replaced the first.
        #expect(try Poll.readable([listenerWake.descriptor], milliseconds: 0) == [false])
        #expect(request.current?.status == listener.status && request.current?.reason == listener.reason)
    }
}
