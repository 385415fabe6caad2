/// What kind of entry a directory holds, from `d_type` (no `stat`).
public enum EntryKind: Sendable, Equatable {
    case directory, file, symlink, other, unknown
}
