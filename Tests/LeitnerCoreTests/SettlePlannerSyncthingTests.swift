import Testing
@testable import LeitnerCore

/// docs/sync.md, "A store a sync tool is changing": Syncthing carries a card's move as folders
/// made and files created and deleted, in an order of its own. For every order it may take —
/// create before delete, delete before create, files before folders, a folder emptied and
/// removed later, a file changed here kept over the other side's delete — the decision at each
/// step never keeps a part of a card over a whole copy, never removes the card, and once every
/// operation is done it is the level of the newest event that places the card: an edit on one
/// machine does not undo a move on the other.
@Suite struct SettlePlannerSyncthingTests {
    typealias Log = SettlePlannerTests.Log

    /// One file-system operation of Syncthing's on a store: a card folder made or removed in a
    /// level, or one of its sides created or deleted.
    enum Operation: Hashable {
        case makeFolder(Level)
        case create(Level, String)
        case delete(Level, String)
        case removeFolder(Level)
    }

    /// The card's folders on one store: level → the sides the folder holds.
    struct Store {
        var folders: [Level: Set<String>]

        mutating func apply(_ operation: Operation, keeping changed: Set<String> = []) {
            switch operation {
            case .makeFolder(let level): folders[level, default: []].formUnion([])
            case .create(let level, let side): folders[level, default: []].insert(side)
            case .delete(let level, let side):
                // A side changed on this machine is kept over the other's delete (Syncthing).
                if !changed.contains("\(level.name)/\(side)") { folders[level]?.remove(side) }
            case .removeFolder(let level):
                // Removed only once empty; else left for the next pull.
                if folders[level]?.isEmpty == true { folders[level] = nil }
            }
        }

        var copies: Set<Level> { Set(folders.keys) }
        var partial: Set<Level> { Set(folders.filter { $0.value.count < 2 }.keys) }
    }

    /// The operations that carry a move of the card from `from` to `to`, and the order
    /// Syncthing keeps among them: a folder before its files, a folder's files before removing
    /// it. Everything else may come in any order.
    static func move(from: Level, to: Level) -> (operations: [Operation], before: [(Operation, Operation)]) {
        let operations: [Operation] = [.makeFolder(to), .create(to, "front"), .create(to, "back"),
                                       .delete(from, "front"), .delete(from, "back"), .removeFolder(from)]
        let before: [(Operation, Operation)] = [(.makeFolder(to), .create(to, "front")), (.makeFolder(to), .create(to, "back")),
                                                (.delete(from, "front"), .removeFolder(from)), (.delete(from, "back"), .removeFolder(from))]
        return (operations, before)
    }

    /// Every order of `operations` that keeps `before`.
    static func orders(_ operations: [Operation], keeping before: [(Operation, Operation)]) -> [[Operation]] {
        if operations.isEmpty { return [[]] }
        var all: [[Operation]] = []
        for (index, first) in operations.enumerated() where !before.contains(where: { $0.1 == first && operations.contains($0.0) }) {
            var rest = operations
            rest.remove(at: index)
            for tail in orders(rest, keeping: before) { all.append([first] + tail) }
        }
        return all
    }

    /// Checks every step of every order on a store starting as `start`, with the logs `events`
    /// (both devices' lines, as after the sync), and returns the decisions at the end.
    static func walk(start: Store, changed: Set<String>, carried: (operations: [Operation], before: [(Operation, Operation)]),
                     events: [DeviceEvent]) -> Set<SettleDecision> {
        var finals = Set<SettleDecision>()
        for order in orders(carried.operations, keeping: carried.before) {
            var store = start
            for operation in order {
                store.apply(operation, keeping: changed)
                let decision = SettlePlanner.decide(id: "x", copies: store.copies, partial: store.partial, events: events)
                if case .keep(let level) = decision { #expect(!store.partial.contains(level), "kept a part: \(order)") }
                #expect(decision != .remove, "removed the card after \(order)")
            }
            finals.insert(SettlePlanner.decide(id: "x", copies: store.copies, partial: store.partial,
                                               events: events.shuffled()))
        }
        return finals
    }

    /// B moves the card 3 → 5 by hand while A edits its back, in either order: on A, Syncthing
    /// brings B's move (A's changed back stays in 3/x); on B, A's edit makes 3/x again, with the
    /// back only. On both, at the end, the card is in level 5 (the partial 3/x is merged into it).
    @Test(arguments: [true, false]) func anEditAndAMoveBothStand(editIsNewer: Bool) {
        let (a0, b0) = SettlePlannerTests.history()
        var a = a0, b = b0
        a.append(editIsNewer ? 5_000 : 4_000, .edit, from: .three, to: .three)
        b.append(editIsNewer ? 4_000 : 5_000, .move, from: .three, to: .five, hand: true)
        let events = a.events + b.events
        let onA = Self.walk(start: Store(folders: [.three: ["front", "back"]]), changed: ["3/back"],
                            carried: Self.move(from: .three, to: .five), events: events)
        #expect(onA == [.nothing])
        // On B: the card is in 5; A's edit brings back a folder in 3 holding the back, made
        // before its file. Before either arrives, A's line alone moves nothing.
        #expect(SettlePlanner.decide(id: "x", copies: [.five], partial: [], events: events) == .nothing)
        let edit: [Operation] = [.makeFolder(.three), .create(.three, "back")]
        let onB = Self.walk(start: Store(folders: [.five: ["front", "back"]]), changed: [],
                            carried: (edit, [(.makeFolder(.three), .create(.three, "back"))]), events: events)
        #expect(onB == [.nothing])
    }

    /// A grades the card 3 → 4 while B moves it 3 → 5 by hand: each store ends with the card in
    /// 4 and 5, and both keep the level of the newer event, whatever order the files came in.
    @Test(arguments: [true, false]) func aGradeAndAHandMoveKeepTheNewer(gradeIsNewer: Bool) {
        let (a0, b0) = SettlePlannerTests.history()
        var a = a0, b = b0
        a.append(gradeIsNewer ? 5_000 : 4_000, .grade, from: .three, to: .four)
        b.append(gradeIsNewer ? 4_000 : 5_000, .move, from: .three, to: .five, hand: true)
        let events = a.events + b.events
        let expected = SettleDecision.keep(gradeIsNewer ? .four : .five)
        // The old folder is gone on both already: only the new one arrives, file by file.
        let arrive: (Level) -> (operations: [Operation], before: [(Operation, Operation)]) = { level in
            ([.makeFolder(level), .create(level, "front"), .create(level, "back")],
             [(.makeFolder(level), .create(level, "front")), (.makeFolder(level), .create(level, "back"))])
        }
        #expect(Self.walk(start: Store(folders: [.four: ["front", "back"]]), changed: [], carried: arrive(.five), events: events)
                == [expected])
        #expect(Self.walk(start: Store(folders: [.five: ["front", "back"]]), changed: [], carried: arrive(.four), events: events)
                == [expected])
    }

    /// A moves the card 1 → 2 and back while nothing else happens: every step of each delivery
    /// on the other store (create before delete, delete before create, the old folder emptied and
    /// removed later) leaves a decision that removes nothing, and the end is the card in place.
    @Test func movesBackAndForthRemoveNothing() {
        var a = Log("A"), b = Log("B")
        a.append(100, .add, to: .one)
        b.append(150, .add, to: .one, hand: true)
        a.append(1_000, .move, from: .one, to: .two)
        let events = a.events + b.events
        let finals = Self.walk(start: Store(folders: [.one: ["front", "back"]]), changed: [],
                               carried: Self.move(from: .one, to: .two), events: events)
        #expect(finals == [.nothing])
        #expect(Self.orders(Self.move(from: .one, to: .two).operations, keeping: Self.move(from: .one, to: .two).before).count == 80)
    }
}
