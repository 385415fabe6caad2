import LeitnerSystem

extension ConfigurationLocator {
    /// The same user's locator for box `name` (nil: the default box).
    public func locating(box name: String?) -> ConfigurationLocator {
        var other = self
        other.box = name
        return other
    }

    /// The names of the boxes other than the default one (R29): each directory of
    /// `boxesDirectory` and each `NAME.conf` of `configurationDirectory` whose name is a valid
    /// `BoxName`, once each, in byte order. A symbolic link in `boxes/` counts (a store kept
    /// elsewhere, linked in); other entries (a sync tool's `.stfolder`, a stray file) are no box
    /// and are left out; a directory that cannot be read holds none.
    public func boxNames() -> [String] {
        var names = Set<String>()
        for entry in entries(of: boxesDirectory) where entry.kind != .file && entry.kind != .other {
            if BoxName.isValid(entry.name) { names.insert(entry.name) }
        }
        for entry in entries(of: configurationDirectory) where entry.name.hasSuffix(".conf") {
            let name = String(entry.name.dropLast(5))
            if BoxName.isValid(name) { names.insert(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private func entries(of directory: String) -> [DirectoryEntry] {
        guard let descriptor = try? FileDescriptor.openDirectory(directory) else { return [] }
        defer { descriptor.close() }
        return (try? FileSystem.list(descriptor)) ?? []
    }
}
