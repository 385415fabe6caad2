import LeitnerSystem

// The parts of `Store`'s state, each a group of facts that come and go together.

/// The store's own directories (docs/store-format.md), opened at open and closed at close.
struct StoreDirectories {
    /// The store's canonical absolute path.
    let root: String
    let rootFD: FileDescriptor
    /// This device's id (`DeviceID`).
    let device: String
    /// `.leitner/`: what every device shares (`created`, `devices/`, `conflicts/`).
    let sharedFD: FileDescriptor
    /// `.leitner/devices/`: one directory per device that has written to the store.
    let devicesFD: FileDescriptor
    /// `.leitner/devices/DEVICE/`: this device's review log and day record.
    let deviceFD: FileDescriptor
    /// `.leitner/local.DEVICE/`: this device's private state.
    let stateFD: FileDescriptor
    /// `.leitner/tmp/`: cards being written, loose pairs being adopted.
    let stagingFD: FileDescriptor
    /// `.leitner/trash/`: cards being deleted.
    let trashFD: FileDescriptor

    /// Closes them all, the innermost first.
    func close() {
        for fd in [trashFD, stagingFD, stateFD, deviceFD, devicesFD, sharedFD, rootFD] { fd.close() }
    }
}

/// The level directories, as the store holds and watches them.
struct LevelDirectories {
    /// Descriptors, indexed by `Level.rawValue - 1`; nil while the level's path is not a directory
    /// (replaced by hand): that level is then refused until it is one again.
    var fds: [FileDescriptor?] = []
    /// Why a level has no descriptor, by level.
    var problems: [Level: StoreProblem] = [:]
    /// Watch descriptor → level.
    var watches: [Int32: Level] = [:]
    /// The watch on the store's root, where the level directories themselves come and go.
    var rootWatch: Int32 = -1
}

/// What the scans and the reads found beside the cards' levels: reported, never a card.
struct StoreFindings {
    /// Loose files in each level directory (R14 candidates), by level.
    var looseFiles: [Level: Set<String>] = [:]
    /// Entries that are neither cards nor loose files, and duplicate card directories, by path.
    var strays: [String: StoreProblem] = [:]
    /// Cards whose directory is in more than one level → those levels (the served one included):
    /// looked at again before every request, since a sync tool fills and empties them (R13).
    var copies: [String: Set<Level>] = [:]
    /// Card → the names of the conflict copies of its sides a sync tool left in its directory,
    /// found when the card was last read (docs/sync.md).
    var conflictCopies: [String: [String]] = [:]
    /// Card → the names of its text sides holding git's conflict markers, found when its text
    /// was last read.
    var conflictMarkers: [String: [String]] = [:]
}

/// What opening the store found.
struct OpeningReport {
    /// Why the checkpoint after repair could not be made, if it could not (reported, not fatal).
    var checkpointFailure: BoxError?
    /// The level directories' stamps before the open's scan, a level at a time: what the hand
    /// changes made while no daemon ran are found by (`LoggedLevels`).
    var stamps: [String] = []
}

/// Listings kept until their directory's stamp changes.
struct ListingsSeen {
    /// What `rootProblems()` last found, and the root's stamp then: the root is listed again only
    /// when an entry came, went or was renamed (`Status` asks each call).
    var rootProblems: (stamp: DirectoryStamp, problems: [StoreProblem])?
    /// The other devices' names as `peerNames()` last listed them, and `.leitner/devices/`'s stamp
    /// then (every request asks).
    var peerNames: (stamp: DirectoryStamp, names: [String])?
}
