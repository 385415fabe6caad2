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
