/// A directory entry's name and kind.
public struct DirectoryEntry: Sendable, Equatable {
    public var name: String
    public var kind: EntryKind

    package init(name: String, kind: EntryKind) {
        self.name = name
        self.kind = kind
    }
}
