import LeitnerSystem

/// What sits in the store's root beside the levels: a card directory put into `9/` by a
/// mistyped `mv`, or a stray file, is in no level, so no scan of a level finds it (#25).
extension Store {
    /// The names that belong in a store's root besides the levels: the places beside them
    /// (docs/store-format.md: `new/` and `suspended/`, whose cards are in no test).
    static let placeNames: Set<String> = ["new", "suspended"]

    /// The directory of the other boxes' stores (R29): the default store's root holds
    /// `boxes/NAME`, each a store of its own, not cards of this one.
    static let boxesName = "boxes"

    /// Entries a file system itself keeps in a root that is a mount point.
    static let fileSystemNames: Set<String> = ["lost+found"]

    /// ", holding 'a', 'b' and 3 more": what a stray directory of the root holds, so that a card
    /// put there by a mistyped `mv` is named.
    private func heldNames(_ name: String) -> String {
        guard let directory = try? FileDescriptor.openDirectory(name, relativeTo: rootFD) else { return "" }
        defer { directory.close() }
        let names = ((try? FileSystem.list(directory)) ?? []).map(\.name).sorted()
        guard !names.isEmpty else { return ", empty" }
        let shown = names.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        return ", holding " + shown + (names.count > 3 ? " and \(names.count - 3) more" : "")
    }

    /// The entries of the store's root that are neither a level, a place nor hidden. Hidden
    /// entries are the box's own `.leitner/` and what sync tools keep there (`.stfolder`,
    /// `.stignore`, `.git`, `.unison…`), none of them a card.
    /// - Parameter fresh: list the root even when it did not change (`doctor`, which names what a
    ///   stray directory holds, and that can change without the root changing).
    func rootProblems(fresh: Bool = false) -> [StoreProblem] {
        let stamp = DirectoryStamp(rootFD)
        if !fresh, let stamp, let seen = rootProblems(seenAt: stamp) { return seen }
        let problems = listRootProblems()
        noteRootProblems(problems, at: stamp)
        return problems
    }

    private func listRootProblems() -> [StoreProblem] {
        guard let entries = try? FileSystem.list(rootFD) else { return [] }
        return entries
            .filter { !$0.name.hasPrefix(".") && Level(name: $0.name) == nil && !Store.placeNames.contains($0.name)
                        && !Store.fileSystemNames.contains($0.name) && $0.name != Store.boxesName
                        && !($0.name == Store.notesDirectoryName && $0.kind == .directory) }
            .sorted { $0.name < $1.name }
            .map { entry in
                let path = root + "/" + entry.name
                guard entry.kind == .directory else {
                    return StoreProblem(kind: .strayEntry, path: path,
                                        reason: "not a level (1 to 7, finished) nor a place (new, suspended)",
                                        advice: "move it out of the store")
                }
                return StoreProblem(kind: .strayEntry, path: path,
                                    reason: "a directory that is not a level (1 to 7, finished) nor a place (new, suspended): its cards are in no test"
                                        + heldNames(entry.name),
                                    advice: "move its cards into a level (mv '\(path)'/ID '\(root)/1/'), or move it out of the store")
            }
    }
}
