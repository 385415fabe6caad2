import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// docs/sync.md, "Settling a card after a sync": whether two copies of a card hold the same files.
@Suite struct CardDirectoryComparisonTests {
    /// Compares `1/x` and `4/x` under `dir`, both ways round (the answer must not depend on it).
    static func same(_ dir: TemporaryDirectory) throws -> Bool {
        let first = try FileDescriptor.openDirectory(dir.path + "/1/x")
        defer { first.close() }
        let second = try FileDescriptor.openDirectory(dir.path + "/4/x")
        defer { second.close() }
        let forward = try CardDirectoryComparison.sameContent(first, second)
        let backward = try CardDirectoryComparison.sameContent(second, first)
        #expect(forward == backward)
        return forward
    }

    /// A card in levels 1 and 4 with the same front, back and note.
    static func twin() -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        for level in ["1", "4"] {
            dir.write("\(level)/x/front.txt", "hola")
            dir.write("\(level)/x/back.md", "**hello**")
            dir.write("\(level)/x/notes/where.txt", "from the course, week 3")
        }
        return dir
    }

    static func symlink(_ target: String, _ dir: TemporaryDirectory, _ relative: String) {
        #expect(Glibc.symlink(target, dir.path + "/" + relative) == 0)
    }

    @Test func theSameFilesAreTheSameContent() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        #expect(try Self.same(dir))
    }

    @Test func twoEmptyDirectoriesAreTheSame() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(mkdir(dir.path + "/1", 0o755) == 0 && mkdir(dir.path + "/1/x", 0o755) == 0)
        #expect(mkdir(dir.path + "/4", 0o755) == 0 && mkdir(dir.path + "/4/x", 0o755) == 0)
        #expect(try Self.same(dir))
    }

    @Test func otherBytesDiffer() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        dir.write("4/x/back.md", "**hellO**")   // same size
        #expect(try !Self.same(dir))
        dir.write("4/x/back.md", "**hello** again")
        #expect(try !Self.same(dir))
    }

    @Test func anotherOrAMissingNameDiffers() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        dir.write("4/x/back.sync-conflict-20261122-101500-ABCDEFG.md", "**hi**")
        #expect(try !Self.same(dir))
        dir.move("4/x/back.sync-conflict-20261122-101500-ABCDEFG.md", "4/x/back.md")
        dir.write("4/x/back.md", "**hello**")
        #expect(try Self.same(dir))
        dir.move("4/x/back.md", "4/x/back.txt")
        #expect(try !Self.same(dir))
    }

    /// A copy still being written (a sync tool's temporary file inside it) is not the whole one.
    @Test func aCopyBeingWrittenDiffers() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        dir.write("4/x/.syncthing.back.md.tmp", "**hel")
        #expect(try !Self.same(dir))
    }

    @Test func subdirectoriesAreComparedInTurn() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        dir.write("4/x/notes/where.txt", "from the course, week 4")
        #expect(try !Self.same(dir))
        dir.write("4/x/notes/where.txt", "from the course, week 3")
        dir.write("4/x/notes/more/deep.txt", "")
        #expect(try !Self.same(dir))
    }

    /// A file and a directory of the same name differ.
    @Test func aFileIsNotADirectory() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        let card = try FileDescriptor.openDirectory(dir.path + "/4/x")
        defer { card.close() }
        try FileSystem.removeTree("notes", in: card)
        dir.write("4/x/notes", "")
        #expect(try !Self.same(dir))
    }

    /// Links are compared by target and never followed: one into `/etc` is not read.
    @Test func linksAreComparedByTheirTarget() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        Self.symlink("/etc/passwd", dir, "1/x/extra")
        Self.symlink("/etc/passwd", dir, "4/x/extra")
        #expect(try Self.same(dir))
        #expect(unlink(dir.path + "/4/x/extra") == 0)
        Self.symlink("/etc/hostname", dir, "4/x/extra")
        #expect(try !Self.same(dir))
        // A link beside a file with the link's target's bytes: not the same.
        #expect(unlink(dir.path + "/4/x/extra") == 0)
        dir.write("4/x/extra", String(decoding: (try? FileSystem.readFile(atPath: "/etc/passwd")) ?? [], as: UTF8.self))
        #expect(try !Self.same(dir))
        // A link to a directory is not entered.
        #expect(unlink(dir.path + "/1/x/extra") == 0 && unlink(dir.path + "/4/x/extra") == 0)
        Self.symlink("notes", dir, "1/x/elsewhere")
        Self.symlink("notes", dir, "4/x/elsewhere")
        #expect(try Self.same(dir))
    }

    /// A FIFO has no content to compare (and opening it could block): it makes the copies differ,
    /// even when both have one.
    @Test func aFIFOMakesThemDiffer() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        #expect(mkfifo(dir.path + "/1/x/pipe", 0o644) == 0)
        #expect(mkfifo(dir.path + "/4/x/pipe", 0o644) == 0)
        #expect(try !Self.same(dir))
    }

    /// Files larger than one read, equal, or differing only in their last byte; and a size that
    /// is a whole number of reads.
    @Test func largeFilesAreComparedToTheEnd() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        let body = String(repeating: "abcdefgh", count: 25_000)
        dir.write("1/x/front.txt", body + "!")
        dir.write("4/x/front.txt", body + "!")
        #expect(try Self.same(dir))
        dir.write("4/x/front.txt", body + "?")
        #expect(try !Self.same(dir))
        let whole = String(repeating: "z", count: 2 * 64 * 1024)
        dir.write("1/x/front.txt", whole)
        dir.write("4/x/front.txt", whole)
        #expect(try Self.same(dir))
    }

    /// An error is thrown, not taken for a difference: the caller cannot settle what it could
    /// not read.
    @Test func whatCannotBeReadIsAnError() throws {
        let dir = Self.twin()
        defer { dir.remove() }
        let card = try FileDescriptor.openDirectory(dir.path + "/1/x")
        defer { card.close() }
        let file = try FileDescriptor.open(dir.path + "/4/x/front.txt", flags: O_RDONLY)
        defer { file.close() }
        #expect(throws: Errno.notDirectory) { try CardDirectoryComparison.sameContent(card, file) }
    }

    @Test func anUnreadableFileIsAnError() throws {
        guard geteuid() != 0 else { return }   // root reads a file of mode 000
        let dir = Self.twin()
        defer { dir.remove() }
        #expect(chmod(dir.path + "/4/x/back.md", 0) == 0)
        #expect(throws: Errno.permission) { try Self.same(dir) }
    }
}
