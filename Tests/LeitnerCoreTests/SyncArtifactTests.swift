import Testing
@testable import LeitnerCore

/// docs/sync.md: the names each sync tool leaves, and git's conflict markers, are recognised;
/// card ids and sides, even ones that look a little like them, are not.
@Suite struct SyncArtifactTests {
    static func artifact(_ name: String) -> SyncArtifact? { SyncArtifact(fileName: name) }

    // MARK: Syncthing

    @Test func syncthingConflictCopyNamesItsOriginal() {
        #expect(Self.artifact("back.sync-conflict-20261122-101500-ABCDEFG.txt")
                == SyncArtifact(tool: .syncthing, kind: .conflictCopy(original: "back.txt")))
        // Older Syncthing left out the device; a name with no extension keeps none.
        #expect(Self.artifact("front.sync-conflict-20161011-120000.md")?.original == "front.md")
        #expect(Self.artifact("hola.sync-conflict-20261122-101500-ABCDEFG")?.original == "hola")
        #expect(Self.artifact("hola-back.sync-conflict-20261122-101500-Z2ABCDE.png")?.original == "hola-back.png")
    }

    @Test func syncthingTemporaries() {
        #expect(Self.artifact(".syncthing.back.txt.tmp") == SyncArtifact(tool: .syncthing, kind: .temporary))
        #expect(Self.artifact(".syncthing.hola.tmp")?.kind == .temporary)
        #expect(Self.artifact("~syncthing~back.txt.tmp")?.kind == .temporary)
    }

    @Test func syncthingLookalikesAreNotArtifacts() {
        // The date and time must be digits where Syncthing puts them.
        #expect(Self.artifact("back.sync-conflict-notadate.txt") == nil)
        #expect(Self.artifact("back.sync-conflict-2026112-101500.txt") == nil)
        #expect(Self.artifact(".sync-conflict-20261122-101500.txt") == nil)
        #expect(Self.artifact("sync-conflict") == nil)
        #expect(Self.artifact("back.sync-conflic") == nil)
        #expect(Self.artifact("back.sync-conflict-") == nil)
        #expect(Self.artifact(".syncthing.back.txt") == nil)
    }

    // MARK: Unison

    /// The names Unison 2.52.1's -copyonconflict made in a real run.
    @Test func unisonConflictCopies() {
        #expect(Self.artifact("back (conflict_on_2026-11-24).txt")
                == SyncArtifact(tool: .unison, kind: .conflictCopy(original: "back.txt")))
        #expect(Self.artifact("back (conflict #1_on_2026-11-24).txt")?.original == "back.txt")
        #expect(Self.artifact("hola (conflict_on_2026-11-24)")?.original == "hola")
        #expect(Self.artifact("back (conflict #x_on_2026-11-24).txt") == nil)
        #expect(Self.artifact("back (conflict_on_).txt") == nil)
    }

    @Test func unisonTemporaries() {
        #expect(Self.artifact(".unison.back.txt.3e1b0f.unison.tmp") == SyncArtifact(tool: .unison, kind: .temporary))
        #expect(Self.artifact(".unison.hola.tmp")?.kind == .temporary)
        #expect(Self.artifact(".unison.back.txt") == nil)
    }

    // MARK: Dropbox and Nextcloud

    @Test func dropboxAndNextcloudConflictedCopies() {
        #expect(Self.artifact("back (Ana's conflicted copy 2026-11-22).txt")
                == SyncArtifact(tool: .dropbox, kind: .conflictCopy(original: "back.txt")))
        #expect(Self.artifact("back (conflicted copy 2026-11-22 101500).md")?.original == "back.md")
        #expect(Self.artifact("a (b) (conflicted copy 2026-11-22 101500).md")?.original == "a (b).md")
        #expect(Self.artifact("back (copy).txt") == nil)
    }

    // MARK: Names that are none of these

    @Test func cardIdsAndSidesAreNotArtifacts() {
        for name in ["hola", "front.txt", "back.png", "café-au-lait", "猫", "sync-conflict-notes",
                     "hola-front.txt", "a.b.c", "conflict", "back (notes).txt", ".leitner"] {
            #expect(Self.artifact(name) == nil, "\(name)")
        }
    }

    // MARK: git

    static let merged = """
        first
        <<<<<<< HEAD
        mine 1
        mine 2
        =======
        theirs 1
        >>>>>>> other
        middle
        <<<<<<< HEAD
        ||||||| base
        was
        =======
        theirs only
        >>>>>>> other
        last

        """

    @Test func gitMarkersAreFoundAndEitherSideKept() {
        #expect(SyncArtifact.hasConflictMarkers(Self.merged))
        #expect(SyncArtifact.resolvingMarkers(Self.merged, keeping: .mine) == "first\nmine 1\nmine 2\nmiddle\nlast\n")
        #expect(SyncArtifact.resolvingMarkers(Self.merged, keeping: .theirs) == "first\ntheirs 1\nmiddle\ntheirs only\nlast\n")
    }

    @Test func gitMarkersWithCarriageReturns() {
        let text = "a\r\n<<<<<<< HEAD\r\nx\r\n=======\r\ny\r\n>>>>>>> b\r\nz\r\n"
        #expect(SyncArtifact.resolvingMarkers(text, keeping: .theirs) == "a\r\ny\r\nz\r\n")
    }

    /// A text that only quotes a marker, or a hunk left open, is not a conflict.
    @Test func incompleteMarkersAreNotAConflict() {
        #expect(!SyncArtifact.hasConflictMarkers("plain text"))
        #expect(!SyncArtifact.hasConflictMarkers("git writes <<<<<<< at the start of a line"))
        #expect(!SyncArtifact.hasConflictMarkers("<<<<<<< HEAD\nmine\n=======\ntheirs\n"))
        #expect(!SyncArtifact.hasConflictMarkers("=======\n>>>>>>> x\n"))
        #expect(!SyncArtifact.hasConflictMarkers("<<<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> b\n"))
    }
}
