import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// The simulation's steps for tags, practice and a part of the test (R25–R27), kept apart from
/// its day loop so that each is one call there. They draw from a learner of their own, so that
/// the rest of a run's choices are those it made before these steps existed.
extension BoxSimulationTests {
    /// The tag the simulation gives cards, and filters by.
    static let simulationTag = "sim:part"

    /// Tags about a third of the box's cards; the cards tagged.
    func tagSome(_ f: BoxFixture, _ model: LeitnerModel, _ random: inout Learner) throws -> Set<String> {
        var tagged = Set<String>()
        for id in model.level.keys.sorted() where random.chance(0.3) {
            _ = try f.box.tag(id: id, tags: [Self.simulationTag])
            tagged.insert(id)
        }
        return tagged
    }

    /// Tags or untags one card: an edit, which moves nothing and leaves the test as it was.
    func retag(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner, tagged: inout Set<String>,
               when: String, agree: (Bool, String) -> Void) throws {
        model.settle()
        let ids = model.level.keys.sorted()
        guard !ids.isEmpty else { return }
        let id = random.pick(ids)
        let before = try f.box.status().test
        if tagged.contains(id) {
            agree(try f.box.untag(id: id, tags: [Self.simulationTag]).tags.isEmpty, "\(when) untag \(id)")
            tagged.remove(id)
        } else {
            agree(try f.box.tag(id: id, tags: [Self.simulationTag]).tags == [Self.simulationTag], "\(when) tag \(id)")
            tagged.insert(id)
        }
        model.settle()
        agree(try f.box.status().test == before, "\(when) tagging \(id) changed the test")
    }

    /// A practice answer (R27), on a card chosen by tag through `PracticeCards` or on any card:
    /// it moves nothing, and the test — its summary, its queue and its order — is unchanged.
    func practiceOnce(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner, tagged: Set<String>,
                      when: String, agree: (Bool, String) -> Void) throws {
        model.settle()
        let ids = model.level.keys.sorted()
        guard !ids.isEmpty else { return }
        var id = random.pick(ids)
        if random.chance(0.5) {
            let chosen = try f.box.practiceCards(PracticeSelection(filter: try TagFilter(tags: [Self.simulationTag]), limit: 1000))
            let live = tagged.intersection(ids)
            agree(Set(chosen.map(\.id)) == live, "\(when) practice cards \(chosen.count), model's tagged \(live.count)")
            guard let first = chosen.first else { return }
            id = first.id
        }
        let before = try f.box.status().test
        let queue = f.box.queueNow
        let card = try f.box.practice(id: id, correct: random.chance(0.6), answerMs: 500 + random.below(3000))
        model.settle()
        agree(card.level == model.level[id], "\(when) practice \(id) moved it to \(card.level)")
        agree(try f.box.status().test == before, "\(when) practice \(id) changed the test")
        agree(f.box.queueNow == queue, "\(when) practice \(id) changed the queue")
    }

    /// A review of the tagged part of the test (R26): `Next` with a filter shows only queued cards
    /// with the tag, graded as any grade; once it shows none, the model's queue holds no tagged
    /// card, and the test stays open while any other card is queued (R10).
    /// - Returns: the grades made, and the last one's card and level before it.
    func reviewTaggedPart(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner, tagged: Set<String>,
                          when: String, agree: (Bool, String) -> Void) throws -> (grades: Int, last: (id: String, from: Level)?) {
        let filter = try TagFilter(tags: [Self.simulationTag])
        var grades = 0
        var last: (id: String, from: Level)?
        for _ in 0..<(1 + random.below(8)) {
            let (shown, test, outside) = try f.box.next(filter: filter, levels: [])
            model.settle()
            let queue = model.queue
            agree(outside == queue.subtracting(tagged).count,
                  "\(when) filtered next leaves out \(outside), model \(queue.subtracting(tagged).count)")
            guard let card = shown else {
                let left = queue.intersection(tagged)
                agree(left.isEmpty, "\(when) filtered next shows nothing; the model's queue holds tagged \(left.sorted())")
                agree(test == model.summary(), "\(when) filtered next: \(test), model \(model.summary())")
                agree(queue.isEmpty || test.state != .completed, "\(when) the test completed with \(queue.count) cards queued")
                return (grades, last)
            }
            agree(queue.contains(card.id) && tagged.contains(card.id), "\(when) filtered next shows \(card.id), not a tagged queued card")
            agree(card.level == model.level[card.id], "\(when) filtered next: \(card.id) in \(card.level)")
            let correct = random.chance(0.85)
            let graded = try f.box.grade(id: card.id, correct: correct, answerMs: 500 + random.below(3000))
            model.grade(card.id, correct: correct)
            grades += 1
            last = (card.id, card.level)
            agree(graded.card.level == model.level[card.id], "\(when) filtered grade \(card.id) → \(graded.card.level)")
            agree(graded.test == model.summary(), "\(when) filtered grade \(card.id): \(graded.test), model \(model.summary())")
        }
        return (grades, last)
    }
}
