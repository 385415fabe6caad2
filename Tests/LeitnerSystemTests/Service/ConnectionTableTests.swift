import Glibc
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
