import Dispatch
import Glibc
import Synchronization
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R22: a side is opened once, through the card's directory, and read from that descriptor: a
/// link to a file outside the store, swapped in and out over `front.txt` as fast as a process
/// can, is never read; a FIFO never blocks; a side too large for a reply is refused unread.
@Suite struct AssetReadRaceTests {
    /// Milliseconds of the monotonic clock.
    static func now() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
    }

    @Test func r22ALinkSwappedInDuringReadsIsNeverFollowedOut() throws {
        let f = try BoxFixture()
        try f.box.addText("inside", "back", id: "race")
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        outside.write("secret", "OUTSIDE-SECRET")
        let front = f.dir.path + "/1/race/front.txt"
        let link = f.dir.path + "/1/race/.link"
        let regular = f.dir.path + "/1/race/.regular"
        let stop = Atomic<Bool>(false)
        let swaps = Atomic<Int>(0)
        let swapper = DispatchGroup()
        DispatchQueue.global().async(group: swapper) {
            while !stop.load(ordering: .relaxed) {
                _ = unlink(link)
                _ = symlink(outside.path + "/secret", link)
                _ = rename(link, front)
                let fd = open(regular, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                _ = write(fd, "inside", 6)
                close(fd)
                _ = rename(regular, front)
                swaps.add(1, ordering: .relaxed)
            }
        }
        var reads = 0, leaked = 0, refused = 0
        let start = AssetReadRaceTests.now()
        // Two seconds, and on a loaded machine (the swapper's thread waits for a core) until it
        // has swapped enough times, within half a minute.
        while AssetReadRaceTests.now() - start < 2_000
                || (swaps.load(ordering: .relaxed) <= 100 && AssetReadRaceTests.now() - start < 30_000) {
            for side in [SideName.front] {
                do {
                    let asset = try f.box.readAsset(id: "race", side: side)
                    if String(decoding: asset.data, as: UTF8.self).contains("OUTSIDE") { leaked += 1 }
                } catch {
                    refused += 1
                }
                if let text = try? f.box.show(id: "race").front.text, text.contains("OUTSIDE") { leaked += 1 }
                reads += 1
            }
        }
        stop.store(true, ordering: .relaxed)
        swapper.wait()
        #expect(leaked == 0, "\(leaked) of \(reads) reads returned the outside file's bytes")
        #expect(reads > 100 && swaps.load(ordering: .relaxed) > 100, "reads \(reads), swaps \(swaps.load(ordering: .relaxed))")
        #expect(refused < reads, "the regular file is read between the swaps")
    }

    @Test func r22AFIFOSideIsRefusedAtOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("front", "back", id: "pipe")
        f.dir.removeFile("1/pipe/front.txt")
        #expect(mkfifo(f.dir.path + "/1/pipe/front.txt", 0o644) == 0)
        let start = AssetReadRaceTests.now()
        expectBoxError({ try f.box.readAsset(id: "pipe", side: .front) }) {
            if case .storeFailure(_, let reason, _, _) = $0 { return reason.contains("not a regular file") }
            return false
        }
        #expect(throws: BoxError.self) { try f.box.show(id: "pipe") }
        #expect(AssetReadRaceTests.now() - start < 1_000)
    }

    @Test func aSideTooLargeForAReplyIsRefusedUnread() throws {
        let f = try BoxFixture()
        try f.box.addText("front", "back", id: "huge")
        // A 2 GB sparse file: nothing to read quickly, everything to refuse at once.
        #expect(truncate(f.dir.path + "/1/huge/front.txt", 2 << 30) == 0)
        let start = AssetReadRaceTests.now()
        expectBoxError({ try f.box.readAsset(id: "huge", side: .front) }) {
            if case .storeFailure(let path, let reason, _, _) = $0 {
                return path.hasSuffix("/1/huge/front.txt") && reason.contains("too large: 2147483648 bytes")
            }
            return false
        }
        #expect(AssetReadRaceTests.now() - start < 500)
        #expect(try f.box.readAsset(id: "huge", side: .back).data == Array("back".utf8))
    }

    @Test func aLinkInsideTheStoreIsFollowedAndOneOutsideIsNot() throws {
        let f = try BoxFixture()
        try f.box.addText("front", "shared back", id: "a")
        try f.box.addText("front b", "other", id: "b")
        f.dir.removeFile("1/b/back.txt")
        f.dir.symlink("../a/back.txt", at: "1/b/back.txt")
        #expect(try f.box.readAsset(id: "b", side: .back).data == Array("shared back".utf8))
        f.dir.removeFile("1/b/back.txt")
        f.dir.symlink("../../../etc/hostname", at: "1/b/back.txt")
        #expect(throws: BoxError.self) { try f.box.readAsset(id: "b", side: .back) }
    }
}
