import Glibc
import LeitnerSystem

extension Floors {
    /// Reads every card as a listing must, with nothing of the box: opens each card directory,
    /// lists it, opens, `fstat`s and reads both sides (the floor of `List` with text).
    /// - Returns: the seconds taken and the cards read.
    static func readCards(_ path: String) throws -> (seconds: Double, cards: Int) {
        var cards = 0
        let seconds = try Timing.secondsThrowing {
            for level in ["1", "2", "3", "4", "5", "6", "7", "finished"] {
                let levelDirectory = try FileDescriptor.openDirectory(path + "/" + level)
                defer { levelDirectory.close() }
                var ids: [String] = []
                try FileSystem.forEachEntry(levelDirectory) { name, _ in ids.append(name) }
                for id in ids {
                    let card = try FileDescriptor.openDirectory(id, relativeTo: levelDirectory)
                    var sides: [String] = []
                    try FileSystem.forEachEntry(card, fresh: true) { name, _ in sides.append(name) }
                    for side in sides {
                        let file = try FileDescriptor.open(side, relativeTo: card, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
                        _ = try file.read(upTo: Int(try file.status().st_size))
                        file.close()
                    }
                    card.close()
                    cards += 1
                }
            }
        }
        return (seconds, cards)
    }
}
