import Testing
@testable import LeitnerCore
import LeitnerTestSupport
import LeitnerSystem
import Glibc

/// The search index kept on disk between boxes (`SearchIndexFile`, docs/performance.md, "The
/// first search"): a card is taken from the file only while its stamp holds, so an edit made
/// while no box was open — in place with the same length, a side renamed over, a card moved by
/// hand, a copy of the store — is read, and a damaged file is never used.
@Suite struct SearchIndexFileTests {
    static let file = TestBox.local + "/" + SearchIndexFile.fileName
    static let fields = Set(SearchMatch.Field.allCases)

    static func open(_ dir: TemporaryDirectory, apart: Bool = false) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.buildsIndexesApart = apart
        return try Box(options: options)
    }

    static func ids(_ box: Box, _ text: String) throws -> [String] {
        Array(Set(try box.search(SearchPattern(text, regex: false), fields: fields, level: nil).map(\.id))).sorted()
    }

    /// A store of four cards whose index file was written by a first search, the box closed.
    /// The cards' files are older than the kernel clock's tick first (`DirectoryStamp.racyWindow`),
    /// so that their stamps are trusted and kept.
    static func storeWithFile() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        let box = try open(dir)
        for id in ["alpha", "beta", "gamma", "delta"] { try box.addText("front \(id)", "back \(id)", id: id) }
        usleep(1_100_000)
        #expect(try ids(box, "front") == ["alpha", "beta", "delta", "gamma"])
        box.close()
        return dir
    }

    /// What a build of `dir`'s store takes from the file, the box open: the cards it did not read.
    static func taken(_ box: Box) -> Int {
        SearchIndex.read(box.store.cardLevels, from: box.store, watcher: box.store.watcher,
                         saved: SearchIndexFile.load(in: box.store.stateFD)).map(\.taken) ?? -1
    }

    @Test func cardsWhoseStampsHoldAreTakenFromTheFileUnread() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        let saved = try #require(SearchIndexFile.load(in: try FileDescriptor.openDirectory(dir.path + "/" + TestBox.local)))
        #expect(saved.slotCount == 4)
        let box = try Self.open(dir)
        defer { box.close() }
        #expect(Self.taken(box) == 4)
        #expect(try Self.ids(box, "back gamma") == ["gamma"])
        #expect(box.searchIndex?.unwatchedCount == 0)
    }

    @Test func anEditOfTheSameLengthWhileClosedIsRead() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        // In place, the same length: only the file's times tell.
        dir.write("1/alpha/front.txt", "zebra alpha")
        // A new file renamed over a side, as an editor or a sync tool saves.
        dir.write("1/beta/.back.txt.tmp", "okapi beta")
        #expect(rename(dir.path + "/1/beta/.back.txt.tmp", dir.path + "/1/beta/back.txt") == 0)
        // Tags written by hand.
        dir.write("1/gamma/tags", "hand\n")
        let box = try Self.open(dir)
        defer { box.close() }
        #expect(Self.taken(box) == 1)
        #expect(try Self.ids(box, "zebra") == ["alpha"])
        #expect(try Self.ids(box, "front alpha").isEmpty)
        #expect(try Self.ids(box, "okapi") == ["beta"])
        #expect(try Self.ids(box, "back beta").isEmpty)
        #expect(try box.search(SearchPattern("front", regex: false), fields: Self.fields, level: nil,
                               filter: TagFilter(tags: ["hand"])).map(\.id) == ["gamma"])
    }

    @Test func aCardMovedByHandWhileClosedIsFoundWhereItIs() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        // `mv 1/delta 3/`, and one card removed, while no box is open.
        #expect(rename(dir.path + "/1/delta", dir.path + "/3/delta") == 0)
        dir.removeTree("1/beta")
        let box = try Self.open(dir)
        defer { box.close() }
        let found = try box.search(SearchPattern("back", regex: false), fields: [.back], level: nil)
        #expect(found.map(\.id) == ["alpha", "gamma", "delta"])
        #expect(found.last?.level == .three)
        #expect(Set(try box.search(SearchPattern("delta", regex: false), fields: Self.fields, level: "3").map(\.id)) == ["delta"])
        #expect(try box.search(SearchPattern("delta", regex: false), fields: Self.fields, level: "1").isEmpty)
    }

    @Test func aCopyOfTheStoreReadsEveryCard() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        let copy = dir.copy()
        defer { copy.remove() }
        // The file came along; every inode and change time is new.
        #expect(SearchIndexFile.load(in: try FileDescriptor.openDirectory(copy.path + "/" + TestBox.local)) != nil)
        copy.write("1/alpha/front.txt", "zebra alpha")
        let box = try Self.open(copy)
        defer { box.close() }
        #expect(Self.taken(box) == 0)
        #expect(try Self.ids(box, "zebra") == ["alpha"])
    }

    @Test func aTruncatedOrDamagedFileIsNotUsedAndIsWrittenAgain() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        let path = dir.path + "/" + Self.file
        let whole = try FileSystem.readFile(atPath: path)
        #expect(SearchIndexFile.decoded(whole) != nil)
        // Cut anywhere, or a byte of a card's text changed, or an older version: not used.
        for length in [0, 7, 20, whole.count / 2, whole.count - 1] {
            #expect(SearchIndexFile.decoded(Array(whole.prefix(length))) == nil)
        }
        var flipped = whole
        flipped[whole.count - 20] ^= 0x20
        #expect(SearchIndexFile.decoded(flipped) == nil)
        var older = whole
        older[7] = UInt8(ascii: "0")
        #expect(SearchIndexFile.decoded(older) == nil)
        // A flipped top bit of a length (the arena's 8 bytes at 12, the count's 4 at 8): not used.
        // The arena's trapped as it was made an Int, killing every start that built the index
        // ahead (review F1 of session 12).
        for at in [19, 11] {
            var huge = whole
            huge[at] ^= 0x80
            #expect(SearchIndexFile.decoded(huge) == nil)
        }
        // A damaged file in the store: the box reads every card, answers right, and writes it anew.
        dir.write(Self.file, String(decoding: whole.prefix(whole.count / 2), as: UTF8.self))
        dir.write("1/alpha/front.txt", "zebra alpha")
        let box = try Self.open(dir)
        #expect(try Self.ids(box, "zebra") == ["alpha"])
        box.close()
        #expect(SearchIndexFile.decoded(try FileSystem.readFile(atPath: path)) != nil)
    }

    /// The index's reads take each card's stamp with the read (`readSides` with `stamping`), from
    /// the descriptors they read the files by, instead of opening and listing the card a second
    /// time: the same stamp as one taken apart, for a plain card, one with tags and a picture, a
    /// reverse card and a cloze card, and one that no longer holds after an edit in place.
    @Test func aReadTakesTheStampATakingApartGives() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.open(dir)
        defer { box.close() }
        try box.addText("front plain", "back plain", id: "plain")
        try box.addText("front tagged", "back tagged", id: "tagged")
        dir.write("1/tagged/tags", "animal\n")
        dir.write("1/tagged/picture.png", "a picture")
        let reverse = try box.addReverse(of: "plain", reverseID: nil, level: nil)
        let cloze = try box.addCloze(text: "{{c1::Paris}} is in {{c2::France}}", id: "capital", level: nil)
        usleep(1_100_000)
        for id in ["plain", "tagged", reverse.id] + cloze.map(\.id) {
            let level = try #require(box.store.level(of: id))
            let levelFD = try #require(box.store.openFD(level))
            let stamp = try #require(box.store.readSides(id, in: level, withText: true, stamping: true).stamp, "\(id)")
            #expect(stamp.encoded != nil, "\(id)")
            #expect(stamp.encoded == CardStamp.take(id, in: levelFD)?.encoded, "\(id)")
            #expect(stamp.holds(id, in: levelFD), "\(id)")
        }
        let levelFD = try #require(box.store.openFD(.one))
        let stamp = try #require(box.store.readSides("tagged", in: .one, withText: true, stamping: true).stamp)
        dir.write("1/tagged/tags", "bird\n")
        #expect(!stamp.holds("tagged", in: levelFD))
        // Just written: never trusted, nor kept in the file.
        #expect(box.store.readSides("tagged", in: .one, withText: true, stamping: true).stamp?.encoded == nil)
    }

    /// As the daemon builds: the cards are taken from the file unread, each watched before its
    /// stamp is asked, so that none is left to be looked at by its stamp after the install, and
    /// an edit after is found by the card's watch (R13).
    @Test func theDaemonsBuildWatchesTheCardsItTakes() throws {
        let dir = try Self.storeWithFile()
        defer { dir.remove() }
        let box = try Self.open(dir, apart: true)
        defer { box.close() }
        #expect(throws: BoxError.self) { try Self.ids(box, "front") }
        let build = try #require(box.takeAwaitedBuild())
        build.run()
        guard case .search(let built) = build.outcome else { Issue.record("no search index built"); return }
        #expect(built.taken == 4)
        #expect(try Self.ids(box, "front") == ["alpha", "beta", "delta", "gamma"])
        #expect(box.searchIndex?.unwatchedCount == 0)
        dir.write("1/alpha/back.txt", "lynx alpha")
        #expect(try Self.ids(box, "lynx") == ["alpha"])
        #expect(try Self.ids(box, "back alpha").isEmpty)
    }
}
