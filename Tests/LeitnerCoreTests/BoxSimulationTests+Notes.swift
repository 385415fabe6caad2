import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// The simulation's notes (R30): a seeded run of cloze notes added, edited by hand and by
/// request so that they gain and lose numbers, renamed and deleted by request and by hand (with
/// `mv` and `rm -r`, the box open or closed), their cards moved by request and by hand, the box
/// restarted and killed — also in the middle of a request, at a random step of its system calls
/// (`CrashPoint`) — and checked after every step against `NoteModel`: each number of each note
/// has exactly one sound card, no card is lost or doubled, and no card's schedule moves to
/// another number or another card.
extension BoxSimulationTests {
    @Test(arguments: [UInt64(0x207E5), 0xC10CE, 0x5EED_0A7E, 0xBEEF])
    func notesAgreeWithTheModel(seed: UInt64) throws {
        let f = try BoxFixture("2026-05-04", seed: seed ^ 0x5EED)
        var model = NoteModel()
        var random = Learner(seed: seed)
        var fresh = 0
        func freshName() -> String {
            fresh += 1
            return "n\(fresh)"
        }
        func numbers() -> Set<Int> {
            var chosen = Set<Int>()
            while chosen.isEmpty { for number in 1...5 where random.chance(0.4) { chosen.insert(number) } }
            return chosen
        }
        /// A note's text holding `numbers`, in any order, one of them now and then twice.
        func text(_ numbers: Set<Int>) -> String {
            var pieces = numbers.sorted().map { "{{c\($0)::w\($0)}}" }
            if random.chance(0.3) { pieces.append(pieces[random.below(pieces.count)]) }
            for index in pieces.indices.reversed() { pieces.swapAt(index, random.below(index + 1)) }
            return "Satz " + pieces.joined(separator: " und ") + "."
        }
        var steps: [String] = []
        var failed = false
        func agree(_ ok: Bool, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
            if !ok, !failed {
                Issue.record("seed \(seed), after \(steps.suffix(4)): \(what())", sourceLocation: sourceLocation)
                failed = true
            }
        }
        func check() throws {
            let sound = try f.box.list(level: nil, withText: false)
            // Each number of each note has exactly one sound card, the one the model has.
            var byNumber: [String: [String]] = [:]
            for card in sound {
                guard let link = card.clozeOf else { continue }
                byNumber["\(link.note) c\(link.number)", default: []].append(card.id)
            }
            var expected: [String: [String]] = [:]
            for (id, card) in model.cards where model.isSound(id) { expected["\(card.note) c\(card.number)", default: []].append(id) }
            agree(byNumber.mapValues { $0.sorted() } == expected.mapValues { $0.sorted() },
                  "sound cards \(byNumber.sorted { $0.key < $1.key }), model \(expected.sorted { $0.key < $1.key })")
            // Every card directory where the model has it, none more: none lost or doubled.
            let disk = onDisk(f.dir)
            agree(Set(disk.keys) == Set(model.cards.keys),
                  "on disk beyond the model \(Set(disk.keys).subtracting(model.cards.keys).sorted()), lacking \(Set(model.cards.keys).subtracting(disk.keys).sorted())")
            for (id, card) in model.cards {
                guard let level = disk[id] else { continue }
                if let known = card.level {
                    agree(level == known, "\(id) in \(level), model \(known)")
                } else {
                    // Added at a request (R30): where a new card goes (R23).
                    agree(level == .new || level == .one, "\(id) added in \(level)")
                    model.cards[id]?.level = level
                }
                // Its cloze-of names its note and number still: no schedule moves to another number.
                let link = Store.parseClozeFile(f.dir.read("\(level.name)/\(id)/cloze-of"))
                agree((try? link.get()) == ClozeOf(note: card.note, number: card.number),
                      "\(id)'s cloze-of says \(link), model \(card.note) c\(card.number)")
            }
            var notes = Set<String>()
            if let directory = try? FileDescriptor.openDirectory(f.dir.path + "/notes") {
                defer { directory.close() }
                notes = Set(((try? FileSystem.list(directory)) ?? []).map(\.name))
            }
            agree(notes == Set(model.notes.keys), "notes \(notes.sorted()), model \(model.notes.keys.sorted())")
        }
        /// A restart: the notes renamed meanwhile are told at the first request (R30).
        func reopen() throws {
            try f.reopen()
            for rename in model.renamedWhileClosed() { model.follow(rename.from, to: rename.to) }
            for note in model.notes.keys.sorted() { model.carded(note) }
        }
        var kills = 0, handRenames = 0, refusals = 0
        /// Runs a request; when it was cut off (`cutting`), the box is killed there and opened
        /// again, and `after` tells the model what the store shows: the change all made, or none.
        func request(_ cut: Bool, _ body: () throws -> Void, after: () throws -> Void) throws {
            do {
                try body()
                // Cut after its change was journaled: the change stands, and the box, which
                // could not append to its log, wants a restart.
                if cut, CrashPoint.hasCrashed {
                    f.kill()
                    CrashPoint.disarm()
                    try reopen()
                    kills += 1
                }
            } catch {
                guard cut else { throw error }
                f.kill()
                CrashPoint.disarm()
                try reopen()
                try after()
                kills += 1
            }
        }
        do { for step in 0..<400 {
            let notes = model.notes.keys.sorted()
            let soundCards = model.cards.keys.filter(model.isSound).sorted()
            // Now and then the request below is cut off at a random step of its system calls.
            let cut = random.chance(0.08)
            let cutAfter = 1 + random.below(40)
            func cutting() { if cut { CrashPoint.arm(after: cutAfter) } }
            var operation = random.below(13)
            if notes.isEmpty, operation != 12 { operation = 0 }
            switch operation {
            case 0, 1:
                let note = freshName()
                let chosen = numbers()
                let level = random.chance(0.5) ? random.pick(Level.levels) : nil
                steps.append("\(step) addCloze \(note) \(chosen.sorted()) \(level?.name ?? "-")")
                let written = text(chosen)
                try request(cut, {
                    cutting()
                    _ = try f.box.addCloze(text: written, id: note, level: level?.name)
                    model.addCloze(note, numbers: chosen, level: level)
                }, after: {
                    // All or nothing (R18): the note tells which.
                    if f.dir.exists("notes/" + note) { model.addCloze(note, numbers: chosen, level: level) }
                })
            case 2, 3:
                // A hand edit: numbers gained get their cards at the next request, lost ones leave
                // theirs damaged, and one that comes back finds its card, schedule and all.
                let note = random.pick(notes)
                let chosen = numbers()
                steps.append("\(step) hand edit \(note) \(chosen.sorted())")
                f.dir.write("notes/\(note)/text.md", text(chosen))
                model.setNumbers(note, chosen)
            case 4:
                guard let id = soundCards.isEmpty ? nil : random.pick(soundCards) else { continue }
                let (note, number) = (model.cards[id]!.note, model.cards[id]!.number)
                var chosen = numbers()
                if random.chance(0.8) { chosen.insert(number) }
                steps.append("\(step) edit \(id) \(chosen.sorted())")
                let written = text(chosen)
                guard chosen.contains(number) else {
                    // A text without the number of the card edited through would leave the reply's card damaged.
                    agree(Result<Void, any Error> { _ = try f.box.edit(id: id, front: Asset(name: "front.md", text: written), back: nil) }.isFailure,
                          "edit through \(id) dropped its own number")
                    refusals += 1
                    break
                }
                try request(cut, {
                    cutting()
                    _ = try f.box.edit(id: id, front: Asset(name: "front.md", text: written), back: nil)
                    model.setNumbers(note, chosen)
                }, after: {
                    // The text is written atomically: it holds the old numbers or the new.
                    model.setNumbers(note, Set(ClozeText(parsing: f.dir.read("notes/\(note)/text.md")).numbers))
                })
            case 5:
                let note = random.pick(notes)
                let newID = freshName()
                steps.append("\(step) rename \(note) \(newID)")
                try request(cut, {
                    cutting()
                    _ = try f.box.rename(id: note, to: newID)
                    model.rename(note, to: newID)
                }, after: {
                    if f.dir.exists("notes/" + newID) { model.rename(note, to: newID) }
                })
            case 6:
                // mv of the note's directory while the box runs: seen at the next request.
                let note = random.pick(notes)
                let newID = freshName()
                steps.append("\(step) mv notes/\(note) notes/\(newID)")
                f.dir.move("notes/\(note)", "notes/\(newID)")
                model.rename(note, to: newID)
                handRenames += 1
            case 7:
                let note = random.pick(notes)
                let keep = random.chance(0.3)
                steps.append("\(step) delete \(note)\(keep ? " keeping its cards" : "")")
                try request(cut, {
                    cutting()
                    let listed = try f.box.delete(id: note, keepReverses: keep)
                    agree(listed.sorted() == model.cards(of: note), "delete \(note) names \(listed), model \(model.cards(of: note))")
                    model.delete(note, keepingCards: keep)
                }, after: {
                    if !f.dir.exists("notes/" + note) { model.delete(note, keepingCards: keep) }
                })
            case 8:
                // rm -r of the note: its cards stay, damaged (R21).
                let note = random.pick(notes)
                steps.append("\(step) rm -r notes/\(note)")
                f.dir.removeTree("notes/\(note)")
                model.delete(note, keepingCards: true)
            case 9:
                // A card moved, by request (a sound one) or by hand (any).
                guard let id = model.cards.isEmpty ? nil : random.pick(model.cards.keys.sorted()),
                      let from = onDisk(f.dir)[id] else { continue }
                let to = random.pick(Level.levels.filter { $0 != from })
                if model.isSound(id), random.chance(0.5) {
                    steps.append("\(step) move \(id) \(to.name)")
                    try request(cut, {
                        cutting()
                        _ = try f.box.move(id: id, level: to.name)
                    }, after: {})
                    model.cards[id]?.level = onDisk(f.dir)[id]
                    agree(cut || model.cards[id]?.level == to, "move \(id) left it in \(String(describing: model.cards[id]?.level))")
                } else {
                    steps.append("\(step) mv \(from.name)/\(id) \(to.name)/\(id)")
                    f.dir.move("\(from.name)/\(id)", "\(to.name)/\(id)")
                    model.cards[id]?.level = to
                }
            case 10:
                // Deleting one card by request: refused while its note holds its number alone.
                guard let id = model.cards.isEmpty ? nil : random.pick(model.cards.keys.sorted()) else { continue }
                let card = model.cards[id]!
                let held = model.isSound(id) && model.cards.filter { $0.value.note == card.note && $0.value.number == card.number }.count == 1
                steps.append("\(step) delete card \(id)\(held ? " (held)" : "")")
                let outcome = Result<[String], any Error> { try f.box.delete(id: id, keepReverses: false) }
                if case .failure(let error) = outcome { agree(held, "delete \(id): \(error)") }
                if case .success = outcome {
                    agree(!held, "\(id), which its note still holds, was deleted")
                    model.cards[id] = nil
                } else {
                    refusals += 1
                }
            case 11:
                // The box stopped, killed or closed, and a note renamed by hand meanwhile.
                if random.chance(0.5) { f.kill() } else { f.close() }
                let note = random.pick(notes)
                let newID = freshName()
                steps.append("\(step) closed, mv notes/\(note) notes/\(newID)")
                f.dir.move("notes/\(note)", "notes/\(newID)")
                model.notes[newID] = model.notes.removeValue(forKey: note)
                try reopen()
                handRenames += 1
            default:
                steps.append("\(step) restart")
                try reopen()
            }
            CrashPoint.disarm()
            try check()
            if failed { break }
        } } catch {
            CrashPoint.disarm()
            Issue.record("seed \(seed), after \(steps.suffix(4)): \(error)")
            return
        }
        guard !failed else { return }
        #expect(kills > 2 && handRenames > 10 && refusals > 5, "kills \(kills), hand renames \(handRenames), refusals \(refusals)")
        #expect(try f.box.doctor().allSatisfy { $0.kind == .damagedCard })
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
