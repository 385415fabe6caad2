import LeitnerSystem

/// A directory's modification and change times: an entry that comes, goes or is renamed changes
/// them, so a listing made under one stamp holds while the stamp does, and asking costs one
/// `fstat` instead of a listing (the store's root and `.leitner/devices/` are asked before every
/// request).
///
/// The kernel takes these times from a clock that moves in ticks of some milliseconds, so two
/// changes within one tick leave the same stamp. A stamp younger than `racyWindow` is therefore
/// never trusted (as git treats an index entry as new as its file): the directory is listed
/// again until its last change is safely in the past.
struct DirectoryStamp: Equatable {
    /// One second: many ticks of any kernel's clock.
    static let racyWindow: Int64 = 1_000_000_000

    let modified: Int64
    let changed: Int64

    /// The stamp of the open directory `fd`; nil when it cannot be looked at.
    init?(_ fd: FileDescriptor) {
        guard let st = try? fd.status() else { return nil }
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        changed = st.changeNanoseconds
    }

    /// True when a listing made now may stand for the directory as long as this stamp does: its
    /// last change is older than `racyWindow` by the real-time clock (a clock set back makes every
    /// stamp young, which only costs listings).
    func isSettled(at now: Int64 = RealTime.nanoseconds) -> Bool {
        now - max(modified, changed) >= DirectoryStamp.racyWindow
    }
}
