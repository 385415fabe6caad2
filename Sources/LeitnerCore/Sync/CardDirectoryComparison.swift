import LeitnerSystem

/// Whether two directories of a card hold the same content: a sync tool that moved a card leaves
/// it in two levels for a while (docs/sync.md), and two copies with the same files are one card
/// whichever level is kept, while two that differ carry a change one copy would lose.
enum CardDirectoryComparison {
    /// True when both directories hold the same names, each of the same kind: regular files with
    /// the same bytes, symbolic links with the same target (never followed), subdirectories with
    /// the same content in turn. Any other entry (a FIFO, a socket, a device) makes them differ:
    /// it has no content to compare and no card has one. A sync tool's temporary file or a
    /// conflict copy inside one of them is an entry like any other, so a copy still being
    /// written differs from the whole one.
    /// - Parameters: directories open for reading (`FileDescriptor.openDirectory`); their
    ///   offsets are moved, they are not closed.
    /// - Throws: the error of the first listing, `lstat`, `open`, `read` or `readlink` that fails
    ///   (an entry removed while being compared is `ENOENT`).
    static func sameContent(_ first: FileDescriptor, _ second: FileDescriptor) throws(Errno) -> Bool {
        let firstEntries = try entries(of: first), secondEntries = try entries(of: second)
        guard firstEntries.count == secondEntries.count else { return false }
        for (name, kind) in firstEntries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            guard secondEntries[name] == kind else { return false }
            switch kind {
            case .file:
                guard try sameFile(name, in: first, second) else { return false }
            case .symlink:
                guard try FileSystem.linkTarget(name, in: first) == FileSystem.linkTarget(name, in: second) else { return false }
            case .directory:
                let firstChild = try FileDescriptor.openDirectory(name, relativeTo: first)
                defer { firstChild.close() }
                let secondChild = try FileDescriptor.openDirectory(name, relativeTo: second)
                defer { secondChild.close() }
                guard try sameContent(firstChild, secondChild) else { return false }
            case .other, .unknown:
                return false
            }
        }
        return true
    }

    /// The entries by name (the bytes the kernel gave: a name is compared as bytes, as the file
    /// system does), each kind read with `lstat` where `d_type` does not tell.
    private static func entries(of directory: FileDescriptor) throws(Errno) -> [String: EntryKind] {
        var result: [String: EntryKind] = [:]
        for entry in try FileSystem.list(directory) {
            var kind = entry.kind
            if kind == .unknown {
                kind = try FileSystem.status(entry.name, in: directory).kind
            }
            result[entry.name] = kind
        }
        return result
    }

    /// Compares two regular files named `name`, 64 KiB at a time, stopping at the first
    /// difference. Opened without following a link and without blocking, in case the entry was
    /// replaced by a link or a FIFO since it was listed; such an entry differs.
    private static func sameFile(_ name: String, in first: FileDescriptor, _ second: FileDescriptor) throws(Errno) -> Bool {
        let options: FileDescriptor.OpenOptions = [.noFollow, .nonBlocking]
        let firstFile: FileDescriptor, secondFile: FileDescriptor
        do {
            firstFile = try FileDescriptor.open(name, relativeTo: first, .readOnly, options: options)
        } catch where error == .tooManyLinks {
            return false
        }
        defer { firstFile.close() }
        do {
            secondFile = try FileDescriptor.open(name, relativeTo: second, .readOnly, options: options)
        } catch where error == .tooManyLinks {
            return false
        }
        defer { secondFile.close() }
        guard try isRegular(firstFile), try isRegular(secondFile),
              try firstFile.size() == secondFile.size() else { return false }
        var offset = 0
        while true {
            let firstChunk = try firstFile.read(at: offset, upTo: chunk)
            let secondChunk = try secondFile.read(at: offset, upTo: chunk)
            guard firstChunk == secondChunk else { return false }
            if firstChunk.count < chunk { return true }
            offset += chunk
        }
    }

    private static let chunk = 64 * 1024

    private static func isRegular(_ file: FileDescriptor) throws(Errno) -> Bool {
        try file.status().isRegularFile
    }
}
