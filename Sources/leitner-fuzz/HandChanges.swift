import Glibc
import LeitnerCore
import LeitnerSystem

/// Changes made in the store by hand, as a person makes them with `mv` and an editor while the
/// daemon runs (R13, R14): a card moved to another level, the lone half of a loose pair put into
/// a level, its other half added (the pair is adopted as a card) or the half removed again. The
/// daemon must take each in before its next answer; `Doctor` must report the lone halves, and
/// nothing else.
struct HandChanges {
    let storePath: String

    /// Does one change; returns it in words and the lone halves in the store after it.
    func perform(_ knowledge: BoxKnowledge, using random: inout FuzzRandom) throws(FuzzFailure) -> (String, Set<String>) {
        var halves = knowledge.looseHalves
        switch random.int(0...3) {
        case 0 where !knowledge.ids.isEmpty:
            let id = random.pick(knowledge.ids)
            let from = knowledge.levels[id] ?? .one
            let to = random.pick(Level.allCases.filter { $0 != from })
            try rename("\(storePath)/\(from.name)/\(id)", "\(storePath)/\(to.name)/\(id)")
            return ("mv \(from.name)/\(id) \(to.name)/", halves)
        case 1 where !halves.isEmpty:
            // The other half: the pair becomes a card (R14).
            let front = random.pick(halves.sorted())
            try write(String(front.dropLast("front.txt".count)) + "back.txt", "back by hand")
            halves.remove(front)
            return ("the other half of '\(front)'", halves)
        case 2 where !halves.isEmpty:
            let front = random.pick(halves.sorted())
            do { try FileSystem.removeFile(front, in: nil) } catch { throw FuzzFailure("cannot remove '\(front)': \(error)") }
            halves.remove(front)
            return ("rm \(front)", halves)
        default:
            let level = random.pick(Level.allCases)
            let path = "\(storePath)/\(level.name)/hand\(random.int(100_000...999_999))-front.txt"
            try write(path, "front by hand \(random.int(0...99))")
            halves.insert(path)
            return ("a lone half, '\(path)'", halves)
        }
    }

    private func rename(_ from: String, _ to: String) throws(FuzzFailure) {
        do { try FileSystem.rename(from, in: nil, to: to, in: nil) } catch {
            throw FuzzFailure("cannot move '\(from)' to '\(to)': \(error)")
        }
    }

    private func write(_ path: String, _ text: String) throws(FuzzFailure) {
        do {
            let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
            defer { fd.close() }
            try fd.writeAll(Array(text.utf8))
        } catch {
            throw FuzzFailure("cannot write '\(path)': \(error)")
        }
    }
}
