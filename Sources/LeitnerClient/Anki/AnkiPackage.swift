import Glibc
import LeitnerSystem
import LeitnerVarlink

/// An Anki package (`.apkg`, a deck; `.colpkg`, a whole collection) unpacked into a temporary
/// directory: its collection as an SQLite file and its media by name (docs/anki-import.md).
///
/// The formats, from Anki's `rslib/src/import_export/package/`: a zip holding a `meta` file
/// (protobuf `PackageMetadata`, field 1 the version: 1 legacy, 2 legacy with `.anki21`, 3
/// latest); the collection as `collection.anki2` (version 1 or no `meta`), `collection.anki21`
/// (2), or zstd-compressed `collection.anki21b` (3) — a version 3 package also holds a dummy
/// `collection.anki2` asking to update Anki, so `meta` is read first; a `media` file mapping the
/// zip's entry names (`0`, `1`, …) to the media's names, JSON in versions 1 and 2 and a
/// zstd-compressed protobuf `MediaEntries` in version 3, whose media are zstd-compressed too.
public final class AnkiPackage {
    /// The directory the package is unpacked in, in a temporary directory `close` removes.
    public let directory: String
    /// That temporary directory.
    private let temporary: String
    /// The collection's SQLite file.
    public let collectionPath: String
    /// The package's version from `meta` (1 when it has none).
    public let version: Int
    /// Each media file's name in the collection, and its entry in the package.
    public let media: [String: String]
    /// Each medium's size uncompressed, by its entry, as the latest format's media list gives it.
    private let sizes: [String: Int]
    /// The entries unpacked, listed once: no `stat` per medium and card (docs/anki-import.md,
    /// "Speed").
    private let entries: Set<String>
    /// The package, open: the media it stores uncompressed in the zip are read from it in place
    /// (`inPlace`), never written out as files of their own.
    private let file: FileDescriptor
    private let path: String
    /// The media entries read in place, by name (all of them in a package Anki wrote).
    private let inPlace: [String: ZipDirectory.Entry]

    /// Unpacks `path`.
    /// - Throws: `AnkiPackageError`.
    public init(_ path: String) throws(AnkiPackageError) {
        let temporary: String
        do { temporary = try FileSystem.makeTemporaryDirectory(prefix: "leitner-anki") } catch {
            throw .system("cannot make a temporary directory in '\(FileSystem.temporaryBase)': \(error)")
        }
        self.temporary = temporary
        self.path = path
        do { file = try FileDescriptor.open(path, .readOnly) } catch {
            AnkiPackage.remove(temporary)
            throw .system("cannot open '\(path)': \(error)")
        }
        // Unpacked one level down, in a directory of its own (a plain one: ext4's top-of-a-tree
        // flag placed it in the groups the last deletions had emptied, which made it slower,
        // docs/store-format.md, "Batches").
        let directory = temporary + "/" + ((try? RandomBytes.hex(8)) ?? "package")
        self.directory = directory
        do throws(AnkiPackageError) {
            do {
                try FileSystem.makeDirectory(directory, in: nil, mode: 0o700)
            } catch {
                throw AnkiPackageError.system("cannot make '\(directory)': \(error)")
            }
            // The media (entries named by numbers in every format) that the zip stores as they
            // are stay in it; the rest is unpacked. A zip this reader does not know is unpacked whole.
            let zip = ZipDirectory(file)
            // A file that is no zip at all (a web page saved under the deck's name, a deck's
            // text export renamed) or one cut short is said so, not as unzip's exit status.
            if zip == nil {
                if (try? file.read(at: 0, upTo: 4)) != [0x50, 0x4B, 0x03, 0x04] {
                    throw AnkiPackageError.damaged("it is not a zip file, as every .apkg and .colpkg is")
                }
                if ZipDirectory.endRecord(file) == nil {
                    throw AnkiPackageError.damaged("it is cut short (its zip directory is missing): a download that stopped? Fetch it again")
                }
            }
            let inZip = zip?.entries.filter { $0.value.isStored && !$0.key.isEmpty && $0.key.utf8.allSatisfy { (0x30...0x39).contains($0) } } ?? [:]
            let kept = inZip.keys.sorted()
            _ = try AnkiPrograms.run([AnkiPrograms.unzip, AnkiPrograms.bsdtar], { program in
                program.name == "unzip"
                    ? ["-qq", "-o", path, "-d", directory] + (kept.isEmpty ? [] : ["-x"] + kept)
                    : ["-x", "-f", path, "-C", directory] + kept.flatMap { ["--exclude", $0] }
            }, doing: "unpack '\(path)'")
            let meta = try? FileSystem.readFile(atPath: "\(directory)/meta", limit: 1 << 20)
            let version = try meta.map { bytes throws(AnkiPackageError) in
                do { return Int(try ProtobufMessage(bytes).integer(1) ?? 0) } catch {
                    throw .damaged("its 'meta' file: \(error)")
                }
            } ?? 1
            self.version = version
            switch version {
            case 1: collectionPath = "\(directory)/collection.anki2"
            case 2: collectionPath = "\(directory)/collection.anki21"
            case 3:
                collectionPath = "\(directory)/collection.sqlite"
                _ = try AnkiPrograms.run(AnkiPrograms.zstd, ["-d", "-q", "-f", "\(directory)/collection.anki21b", "-o", collectionPath],
                                         doing: "decompress the collection")
            default: throw AnkiPackageError.damaged("its 'meta' file says version \(version), which this leitnerctl does not know")
            }
            guard FileSystem.exists(collectionPath, in: nil) else {
                throw AnkiPackageError.damaged("it holds no '\(collectionPath.split(separator: "/").last ?? "")'")
            }
            (media, sizes) = try AnkiPackage.mediaMap(in: directory, version: version)
            let entries: Set<String>
            do {
                let unpacked = try FileDescriptor.openDirectory(directory)
                defer { unpacked.close() }
                entries = Set(try FileSystem.list(unpacked).filter { $0.kind != .directory }.map(\.name))
            } catch {
                throw AnkiPackageError.system("cannot list '\(directory)': \(error)")
            }
            self.entries = entries
            inPlace = inZip
            if version >= 3 { try AnkiPackage.decompress(media.values.filter(entries.contains), in: directory) }
        } catch {
            file.close()
            AnkiPackage.remove(temporary)
            throw error
        }
    }

    /// Whether the package holds the medium of this name.
    public func hasMedium(_ name: String) -> Bool {
        guard let entry = media[name] else { return false }
        return inPlace[entry] != nil || entries.contains(entry)
    }

    /// A medium's size in bytes, before it is read, to fill a batch; nil when the package lacks it.
    public func mediumSize(_ name: String) -> Int? {
        guard let entry = media[name] else { return nil }
        if let stored = inPlace[entry] { return version >= 3 ? sizes[entry] ?? stored.size : stored.size }
        guard entries.contains(entry), let status = try? FileSystem.status("\(directory)/\(entry)", in: nil) else { return nil }
        return Int(status.st_size)
    }

    /// The bytes of the media `names`, read together: those stored in the zip from it in place,
    /// the latest format's decompressed by one `zstd` for all of them (its media list gives each
    /// one's size, which splits the output); the others from their unpacked files.
    /// - Throws: `AnkiPackageError`: `.damaged` for a medium the package lacks, a stored one
    ///   whose bytes fail their checksum, or sizes that do not add up to what `zstd` gave.
    public func media(_ names: [String]) throws(AnkiPackageError) -> [String: [UInt8]] {
        var read: [String: [UInt8]] = [:]
        var frames: [(name: String, size: Int)] = []
        var compressed: [UInt8] = []
        var seen = Set<String>()
        for name in names where seen.insert(name).inserted {
            guard let entry = media[name] else { throw .damaged("it lacks '\(name)', which its media list names") }
            if let stored = inPlace[entry] {
                let bytes = try ZipDirectory.read(stored, from: file, path: self.path)
                if version < 3 {
                    read[name] = bytes
                } else if let size = sizes[entry] {
                    frames.append((name, size))
                    compressed += bytes
                } else {
                    // No size to split a shared output by: this one alone.
                    read[name] = try decompress(bytes)
                }
                continue
            }
            guard entries.contains(entry) else { throw .damaged("it lacks '\(name)', which its media list names") }
            do { read[name] = try FileSystem.readFile(atPath: "\(directory)/\(entry)") } catch {
                throw .system("cannot read '\(directory)/\(entry)': \(error)")
            }
        }
        guard !frames.isEmpty else { return read }
        let plain = try decompress(compressed)
        guard plain.count == frames.reduce(0, { $0 + $1.size }) else {
            throw .damaged("its media list's sizes do not add up to its media (\(plain.count) bytes)")
        }
        var at = 0
        for frame in frames {
            read[frame.name] = Array(plain[at..<(at + frame.size)])
            at += frame.size
        }
        return read
    }

    /// zstd frames decompressed, one after the other, through one file in the unpacked
    /// directory (`zstd` reads no pipe from us), removed after.
    private func decompress(_ frames: [UInt8]) throws(AnkiPackageError) -> [UInt8] {
        let path = "\(directory)/media-batch.zst"
        do {
            let written = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], mode: 0o600)
            defer { written.close() }
            try written.writeAll(frames)
        } catch {
            throw .system("cannot write '\(path)': \(error)")
        }
        defer { try? FileSystem.removeFile(path, in: nil) }
        return try AnkiPrograms.run(AnkiPrograms.zstd, ["-d", "-q", "-c", path], doing: "decompress the media")
    }

    /// Removes the temporary directory.
    public func close() {
        file.close()
        AnkiPackage.remove(temporary)
    }

    private static func remove(_ directory: String) {
        guard let parent = try? FileDescriptor.openDirectory(FileSystem.temporaryBase) else { return }
        defer { parent.close() }
        try? FileSystem.removeTree(String(directory.split(separator: "/").last ?? ""), in: parent)
    }

    /// The `media` file: name → entry, and the latest format's sizes by entry. A package
    /// without media may have none.
    static func mediaMap(in directory: String, version: Int) throws(AnkiPackageError) -> (map: [String: String], sizes: [String: Int]) {
        let path = "\(directory)/media"
        guard FileSystem.exists(path, in: nil) else { return ([:], [:]) }
        var map: [String: String] = [:]
        var sizes: [String: Int] = [:]
        if version >= 3 {
            let bytes = try AnkiPrograms.run(AnkiPrograms.zstd, ["-d", "-q", "-c", path], doing: "decompress the media list")
            let entries: [ProtobufMessage]
            do { entries = try ProtobufMessage(bytes).messages(1) } catch {
                throw .damaged("its media list: \(error)")
            }
            for (index, entry) in entries.enumerated() {
                // MediaEntry: 1 name, 2 size, 3 sha1, 255 legacy_zip_filename.
                guard let name = entry.string(1) else { throw .damaged("a media entry has no name") }
                let zipEntry = entry.integer(255).map { String($0) } ?? String(index)
                map[name] = zipEntry
                if let size = entry.integer(2) { sizes[zipEntry] = Int(size) }
            }
            return (map, sizes)
        }
        let text: [UInt8]
        do { text = try FileSystem.readFile(atPath: path, limit: 256 << 20) } catch {
            throw .system("cannot read '\(path)': \(error)")
        }
        guard let object = (try? JSONValue(parsing: text))?.objectValue else {
            throw .damaged("its media list is not a JSON object")
        }
        for (entry, name) in object {
            guard let name = name.stringValue else { throw .damaged("its media list names entry '\(entry)' with no string") }
            map[name] = entry
        }
        return (map, [:])
    }

    /// The new format's media entries (those the package holds), each zstd-compressed: decompressed in place, by one
    /// `zstd` a thousand files (renamed to `.zst` first, so that the plain ones come under
    /// their entry names). The compressed ones stay until `close`: each file deleted meanwhile
    /// would slow every file made after it (ext4 without a journal looks past each inode freed in
    /// the last minute before it gives one out: docs/store-format.md, "Batches").
    static func decompress(_ entries: [String], in directory: String) throws(AnkiPackageError) {
        var present: [String] = []
        for entry in entries {
            do {
                try FileSystem.rename("\(directory)/\(entry)", in: nil, to: "\(directory)/\(entry).zst", in: nil, replacing: true)
            } catch {
                throw .system("cannot rename '\(directory)/\(entry)': \(error)")
            }
            present.append("\(directory)/\(entry).zst")
        }
        var start = 0
        while start < present.count {
            let chunk = Array(present[start..<min(present.count, start + 1000)])
            _ = try AnkiPrograms.run(AnkiPrograms.zstd, ["-d", "-q", "-f", "--"] + chunk, doing: "decompress the media")
            start += chunk.count
        }
    }
}
