import LeitnerSystem

/// Another device of a synced store, as this one last saw its files in
/// `.leitner/devices/NAME/` (docs/sync.md): read, never written.
struct PeerDevice {
    /// What tells a file changed: device, inode, size and modification time. A sync tool
    /// replaces a file by renaming a new one over it, which changes the inode.
    struct Signature: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int64

        init(_ st: FileStatus) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            size = Int(st.st_size)
            modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        }
    }

    let name: String
    /// The day record as last read, and the file it was read from; nil signature: no file.
    var daysSignature: Signature?
    var days = DayRecord()
    /// Why the day record could not be read, if it could not: reported by `doctor`, and the
    /// device's days are left out of the merged record meanwhile.
    var daysProblem: String?
    /// The review log's file as last seen.
    var logSignature: Signature?
    /// A browser device (its `browser` file, R35): its log is written by the daemon its
    /// leitner-web reaches, never delivered by a sync tool, so it makes no store a synced one.
    var isBrowser = false
}
