import Glibc
import Synchronization
import Testing
@testable import LeitnerSystem

/// The table of a server's connections (leitnerd's and leitner-web's): which idle connection
/// makes room for a new one, when a busy table refuses, and the stop. Its threads are tried with
/// the daemon's (leitnerdTests, `ConnectionTableThreadTests`).
@Suite struct ConnectionTableTests {
    /// What a program knows of a peer is its own business: here a number.
    static let peer = 7

    static func rung(_ wake: Wake) -> Bool {
        (try? Poll.readable([wake.descriptor], milliseconds: 0))?.first == true
    }

    @Test func theLongestIdleMakesRoomAndABusyTableRefuses() throws {
        let listener = try Wake()
        let table = ConnectionTable<Int>(listenerWake: listener)
        let wakes = try (0..<3).map { _ in try Wake() }
        guard case .admitted(let first, nil) = table.admit(peer: Self.peer, limit: 2, wake: wakes[0]),
              case .admitted(let second, nil) = table.admit(peer: Self.peer, limit: 2, wake: wakes[1]) else {
            Issue.record("the first two were not admitted")
            return
        }
        // Both busy: the third is refused.
        guard case .full = table.admit(peer: Self.peer, limit: 2, wake: wakes[2]) else {
            Issue.record("a full table of busy connections admitted another")
            return
        }
        #expect(table.park(first) == .serve)
        usleep(2000)
        #expect(table.park(second) == .serve)
        guard case .admitted(_, let replaced?) = table.admit(peer: Self.peer, limit: 2, wake: wakes[2]) else {
            Issue.record("no idle connection made room")
            return
        }
        #expect(replaced.number == first.number)
        #expect(Self.rung(wakes[0]))
        #expect(table.unpark(first) == .makeRoom)
        #expect(table.unpark(second) == .serve)
        #expect(table.count == 3)
        table.remove(first)
        #expect(table.count == 2 && Self.rung(listener))
    }

    /// leitner-web's rule: a connection parked with a later `since` (a new one that may be about
    /// to send its request) makes room only from then on, and `room` says when; an earlier
    /// `since` (a head dribbled since then) makes room before one idle since now.
    @Test func aConnectionMakesRoomFromItsSinceOnAndRoomSaysWhen() throws {
        let listener = try Wake()
        let table = ConnectionTable<Int>(listenerWake: listener)
        let wakes = try (0..<4).map { _ in try Wake() }
        guard case .admitted(let fresh, nil) = table.admit(peer: Self.peer, limit: 2, wake: wakes[0]),
              case .admitted(let slow, nil) = table.admit(peer: Self.peer, limit: 2, wake: wakes[1]) else {
            Issue.record("the first two were not admitted")
            return
        }
        #expect(table.room(limit: 2) == .none)
        let later = MonotonicTime.now + .seconds(60)
        #expect(table.park(fresh, since: later) == .serve)
        #expect(table.room(limit: 2) == .at(later))
        guard case .full = table.admit(peer: Self.peer, limit: 2, wake: wakes[2]) else {
            Issue.record("a connection made room before its since")
            return
        }
        #expect(table.park(slow, since: .now + .seconds(-5)) == .serve)
        #expect(table.room(limit: 2) == .now)
        guard case .admitted(_, let replaced?) = table.admit(peer: Self.peer, limit: 2, wake: wakes[3]) else {
            Issue.record("the slow head made no room")
            return
        }
        #expect(replaced.number == slow.number)
        #expect(table.room(limit: 2) == .at(later))
    }

    /// leitner-web's cap per client address: an address at its share makes room from its own
    /// idle connections only, and is refused while all of them are busy, though places are free;
    /// another address is admitted all the same, and makes room from the idlest of all.
    @Test func anAddressAtItsShareMakesRoomFromItsOwnOrIsRefused() throws {
        let table = ConnectionTable<Int>(listenerWake: try Wake())
        let stranger = ConnectionTable<Int>.Share(address: "192.168.1.66", limit: 2)
        let learner = ConnectionTable<Int>.Share(address: "192.168.1.20", limit: 3)
        let wakes = try (0..<6).map { _ in try Wake() }
        guard case .admitted(let first, nil) = table.admit(peer: Self.peer, limit: 4, share: stranger, wake: wakes[0]),
              case .admitted(let second, nil) = table.admit(peer: Self.peer, limit: 4, share: stranger, wake: wakes[1]) else {
            Issue.record("the stranger's first two were not admitted")
            return
        }
        guard case .overShare = table.admit(peer: Self.peer, limit: 4, share: stranger, wake: wakes[2]) else {
            Issue.record("a third busy connection of one address was admitted")
            return
        }
        guard case .admitted(let phone, nil) = table.admit(peer: Self.peer, limit: 4, share: learner, wake: wakes[2]) else {
            Issue.record("the learner's address was not admitted beside a stranger at its share")
            return
        }
        // The learner's connection is the idlest of all, but the stranger's third takes the
        // place of the stranger's own idle one.
        #expect(table.park(phone, since: .now + .seconds(-10)) == .serve)
        #expect(table.park(second) == .serve)
        guard case .admitted(let third, let replaced?) = table.admit(peer: Self.peer, limit: 4, share: stranger, wake: wakes[3]) else {
            Issue.record("the stranger's idle connection made no room for its own")
            return
        }
        #expect(replaced.number == second.number && Self.rung(wakes[1]) && !Self.rung(wakes[2]))
        #expect(table.unpark(phone) == .serve)
        // Under the share but at the limit: the idlest of all makes room, whoever's it is.
        #expect(table.park(first) == .serve)
        #expect(table.park(phone) == .serve)
        guard case .admitted(_, nil) = table.admit(peer: Self.peer, limit: 4, share: learner, wake: wakes[4]),
              case .admitted(_, let made?) = table.admit(peer: Self.peer, limit: 4, share: learner, wake: wakes[5]) else {
            Issue.record("the learner's address was not admitted under its share")
            return
        }
        #expect(made.number == first.number)
        #expect(third.number > phone.number)
    }

    /// The listener asks the one idle connection to make room while that connection's thread
    /// parks and unparks as fast as it can, as it does around every message: exactly one of the
    /// two wins each time. The listener wins only while the connection is idle, and the thread
    /// then learns it when it next marks itself busy, reading nothing more (a connection closed
    /// to make room never had a call read); it never learns it as it parks, busy (the listener
    /// marked a busy connection leaving), and never goes on serving (the thread marked a leaving
    /// connection busy). The first is what the listener does when its exchange is a plain store
    /// after it found the connection idle (21 of 1,000 races, tried so); the second what the
    /// thread does when its own is a look for `leaving` and a plain store (1cabc1b).
    @Test func theListenerAndARacingConnectionNeverBothWin() throws {
        let rounds = 1000
        var (leftBusy, wentOn, replaced) = (0, 0, 0)
        let newcomer = try Wake()
        for _ in 0..<rounds {
            let table = ConnectionTable<Int>(listenerWake: try Wake())
            guard case .admitted(let entry, nil) = table.admit(peer: Self.peer, limit: 1, wake: try Wake()) else {
                Issue.record("not admitted")
                return
            }
            let started = Atomic<Bool>(false)
            let listenerDone = Atomic<Bool>(false)
            // 0 while serving; 1 asked to leave as it unparked (right), 2 as it parked (busy,
            // wrong), 3 still serving a whole message after the listener was done.
            let outcome = Atomic<Int>(0)
            #expect(DetachedThread.start {
                started.store(true, ordering: .releasing)
                var spins = 0
                while true {
                    let last = listenerDone.load(ordering: .acquiring)
                    if table.park(entry) == .makeRoom { return outcome.store(2, ordering: .releasing) }
                    // Idle a moment, a different one each time, so that the listener's exchange
                    // falls anywhere in it, its first instant and its last.
                    spins = (spins + 397) % 4096
                    for _ in 0..<spins { _ = started.load(ordering: .relaxed) }
                    if table.unpark(entry) == .makeRoom { return outcome.store(1, ordering: .releasing) }
                    // A whole message begun after the listener was done: it left this one serving.
                    if last { return outcome.store(3, ordering: .releasing) }
                }
            } == nil)
            while !started.load(ordering: .acquiring) {}
            var won = false
            for _ in 0..<100_000 {
                if case .admitted(_, let made?) = table.admit(peer: Self.peer, limit: 1, wake: newcomer) {
                    #expect(made === entry)
                    won = true
                    break
                }
            }
            listenerDone.store(true, ordering: .releasing)
            while outcome.load(ordering: .acquiring) == 0 { sched_yield() }
            switch outcome.load(ordering: .acquiring) {
            case 1: if won { replaced += 1 } else { Issue.record("the connection was asked to leave, and the listener admitted none") }
            case 2: leftBusy += 1
            default: if won { wentOn += 1 }
            }
        }
        #expect(leftBusy == 0 && wentOn == 0,
                "of \(rounds) races, \(leftBusy) made a busy connection leave, \(wentOn) left a replaced one serving")
        // The listener won some: the race was run, not only lost.
        #expect(replaced > 0)
    }

    @Test func stoppingTellsEveryConnectionAndTheTableEmpties() throws {
        let listener = try Wake()
        let table = ConnectionTable<Int>(listenerWake: listener)
        let wake = try Wake()
        guard case .admitted(let entry, _) = table.admit(peer: Self.peer, limit: 8, wake: wake) else {
            Issue.record("not admitted")
            return
        }
        #expect(table.emptyFor == nil && !table.isStopping)
        table.stop(deadline: .now + .seconds(5))
        #expect(table.isStopping && Self.rung(wake))
        #expect(table.park(entry) == .stop)
        #expect(table.unpark(entry) == .stop)
        table.remove(entry)
        #expect(table.count == 0 && table.emptyFor != nil)
    }
}
