import LeitnerSystem

/// A zip file's central directory (APPNOTE.TXT 4.3.12–4.3.16): each entry's name, method, sizes,
/// checksum and where its data begins. Anki stores its package's media uncompressed in the zip
/// (zstd-compressed themselves in the latest format), so the import reads each medium in place,
/// where it is, instead of having `unzip` write 2,000 files it then reads and removes
/// (docs/anki-import.md, "Speed"). Everything else in the package is still unpacked by `unzip`.
struct ZipDirectory {
    struct Entry: Equatable {
        var name: String
        /// 0 stored, 8 deflated, …
        var method: UInt16
        var flags: UInt16
        var crc: UInt32
        var compressedSize: Int
        var size: Int
        var localHeader: Int

        /// Its bytes are the file's own, unencrypted: readable in place.
        var isStored: Bool { method == 0 && flags & 1 == 0 && compressedSize == size }
    }

    /// The entries by name.
    let entries: [String: Entry]

    /// The file's length, its last bytes and where in them its end record begins; nil when it has
    /// none, as a zip cut short (a download that stopped) has none, whatever its format.
    static func endRecord(_ file: FileDescriptor) -> (length: Int, tail: [UInt8], at: Int)? {
        guard let length = try? file.status().st_size, length >= 22 else { return nil }
        // The end record is the last 22 bytes but for a comment of at most 65,535.
        let tailStart = max(0, Int(length) - 22 - 65_535)
        guard let tail = try? file.read(at: tailStart, upTo: Int(length) - tailStart) else { return nil }
        return stride(from: tail.count - 22, through: 0, by: -1).first(where: {
            ZipDirectory.integer(tail, $0, 4) == 0x0605_4B50
        }).map { (Int(length), tail, $0) }
    }

    /// Reads the central directory of the zip file open as `file`; nil when it is not a zip
    /// this reader knows (zip64, several disks, no end record): `unzip` then reads it whole.
    init?(_ file: FileDescriptor) {
        guard let (length, tail, end) = ZipDirectory.endRecord(file) else { return nil }
        let count = ZipDirectory.integer(tail, end + 10, 2)
        let size = ZipDirectory.integer(tail, end + 12, 4)
        let offset = ZipDirectory.integer(tail, end + 16, 4)
        // Zip64 marks its fields so; one disk only.
        guard count != 0xFFFF, size != 0xFFFF_FFFF, offset != 0xFFFF_FFFF, ZipDirectory.integer(tail, end + 4, 4) == 0,
              offset + size <= length, let directory = try? file.read(at: offset, upTo: size), directory.count == size else {
            return nil
        }
        var entries: [String: Entry] = [:]
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, ZipDirectory.integer(directory, at, 4) == 0x0201_4B50 else { return nil }
            let nameLength = ZipDirectory.integer(directory, at + 28, 2)
            let skipped = ZipDirectory.integer(directory, at + 30, 2) + ZipDirectory.integer(directory, at + 32, 2)
            guard at + 46 + nameLength <= directory.count else { return nil }
            let entry = Entry(name: String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
                              method: UInt16(ZipDirectory.integer(directory, at + 10, 2)),
                              flags: UInt16(ZipDirectory.integer(directory, at + 8, 2)),
                              crc: UInt32(ZipDirectory.integer(directory, at + 16, 4)),
                              compressedSize: ZipDirectory.integer(directory, at + 20, 4),
                              size: ZipDirectory.integer(directory, at + 24, 4),
                              localHeader: ZipDirectory.integer(directory, at + 42, 4))
            guard entry.compressedSize != 0xFFFF_FFFF, entry.size != 0xFFFF_FFFF, entry.localHeader != 0xFFFF_FFFF else { return nil }
            entries[entry.name] = entry
            at += 46 + nameLength + skipped
        }
        self.entries = entries
    }

    /// The bytes of a stored entry, read from `file` (the zip at `path`) and checked against its
    /// CRC-32.
    /// - Throws: `AnkiPackageError.damaged` naming the entry when its header, its size or its bytes
    ///   are not what the directory says; `.system` when the file cannot be read.
    static func read(_ entry: Entry, from file: FileDescriptor, path: String) throws(AnkiPackageError) -> [UInt8] {
        precondition(entry.isStored)
        let header: [UInt8]
        do { header = try file.read(at: entry.localHeader, upTo: 30) } catch { throw .system("cannot read '\(path)': \(error)") }
        guard header.count == 30, ZipDirectory.integer(header, 0, 4) == 0x0403_4B50 else {
            throw .damaged("its entry '\(entry.name)' has no header where the zip's directory says")
        }
        // The local header's own name and extra field, which may differ from the directory's.
        let start = entry.localHeader + 30 + ZipDirectory.integer(header, 26, 2) + ZipDirectory.integer(header, 28, 2)
        // The read allocates the size the directory gives before it reads: a size past the end of
        // the file is refused, not allocated (up to 4 GiB).
        let length: Int
        do { length = Int(try file.status().st_size) } catch { throw .system("cannot read '\(path)': \(error)") }
        guard start + entry.size <= length else {
            throw .damaged("its entry '\(entry.name)' runs past the end of the file")
        }
        let bytes: [UInt8]
        do { bytes = try file.read(at: start, upTo: entry.size) } catch { throw .system("cannot read '\(path)': \(error)") }
        guard bytes.count == entry.size, CRC32.checksum(bytes) == entry.crc else {
            throw .damaged("its entry '\(entry.name)' is cut short or does not match its checksum")
        }
        return bytes
    }

    /// A little-endian integer of `width` bytes at `at`.
    static func integer(_ bytes: [UInt8], _ at: Int, _ width: Int) -> Int {
        (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
}
