import Glibc
import LeitnerCore
import LeitnerSystem

/// Import of N new text cards into an empty box (`Box.addMany` in the batches `leitnerctl import`
/// sends, durable when it returns), beside its floor measured in the same run: creating N card
/// directories of two small files each, then one `syncfs`. Each in a fresh directory.
enum ImportMeasurement {
    /// The batches `leitnerctl import` sends (`ImportCommand`): 256 cards, four times more each
    /// time, up to 4,096.
    static let firstBatch = 256
    static let largestBatch = 4096
    /// Seconds ext4 without a journal holds an inode freed (once its inode table is written),
    /// looking at each such inode again for every inode it makes in its group: the floor, timed
    /// first, starts this long after the last run's removal, as the box starts after no removal
    /// (docs/performance.md, "The import, its floor and the removal before them").
    static let freedInodesHeld: UInt32 = 31

    static func run(directory: String, count: Int) throws {
        let floorPath = directory + "/import-floor-\(count)"
        let storePath = directory + "/import-box-\(count)"
        for path in [floorPath, storePath] where access(path, F_OK) == 0 { _ = system("rm -rf '\(path)'") }
        sync()
        sleep(freedInodesHeld)
        let floor = try Timing.secondsThrowing {
            try createThenSync(floorPath, count: count) { index in
                ("front-\(index)-of-the-import", "front \(index) of the import", "back \(index)")
            }
        }
        let box = try Box(options: BoxOptions(storePath: storePath, device: BenchDevice.name))
        let cards = (0..<count).map { index in
            NewCard(front: Asset(name: "front.txt", text: "front \(index) of the import"),
                    back: Asset(name: "back.txt", text: "back \(index)"))
        }
        var added = 0
        let time = try Timing.secondsThrowing {
            var start = 0
            var batch = firstBatch
            while start < cards.count {
                let end = min(cards.count, start + batch)
                batch = min(largestBatch, batch * 4)
                added += try box.addMany(Array(cards[start..<end]), allowDuplicateFront: false).added.count
                start = end
            }
        }
        box.close()
        guard added == count else { throw BoxError.storeFailure(path: storePath, reason: "only \(added) of \(count) cards added") }
        let ratio = (time / floor * 100).rounded() / 100
        print("import \(count) cards: box \(Timing.ms(time)) (durable)   floor: create \(count) card directories then syncfs \(Timing.ms(floor))   ratio \(ratio)×")
        for path in [floorPath, storePath] { _ = system("rm -rf '\(path)'") }
    }

    /// The floor of `leitnerctl import` of a TSV as bench/daemon.py measures it, printed for it
    /// to set beside: its deck's cards (line `i`: `word i`, `back of word i`) made plainly in a
    /// fresh directory's `new/`, where the box puts them, with the ids the box gives them.
    static func runTSVFloor(directory: String, count: Int) throws {
        let path = directory + "/import-floor-\(count)"
        if access(path, F_OK) == 0 { _ = system("rm -rf '\(path)'") }
        mkdir(path, 0o755)
        sync()
        let floor = try Timing.secondsThrowing {
            try createThenSync(path + "/new", count: count) { index in ("word-\(index)", "word \(index)", "back of word \(index)") }
        }
        print("floor: make \(count) cards plainly (a directory, two files) then syncfs \(Timing.ms(floor))")
        _ = system("rm -rf '\(path)'")
    }

    /// The floor: what any store of one directory per card must do, written as plainly as can be.
    /// `card` gives the `index`th card's directory name, front and back.
    private static func createThenSync(_ path: String, count: Int,
                                       card: (Int) -> (id: String, front: String, back: String)) throws {
        mkdir(path, 0o755)
        let root = try FileDescriptor.openDirectory(path)
        defer { root.close() }
        for index in 0..<count {
            let (id, front, back) = card(index)
            try FileSystem.makeDirectory(id, in: root)
            let dir = try FileDescriptor.openDirectory(id, relativeTo: root)
            defer { dir.close() }
            for (name, text) in [("front.txt", front), ("back.txt", back)] {
                let file = try FileDescriptor.open(name, relativeTo: dir, flags: O_WRONLY | O_CREAT | O_EXCL)
                defer { file.close() }
                try file.writeAll(Array(text.utf8))
            }
        }
        try root.syncFileSystem()
    }
}
