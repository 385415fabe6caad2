import LeitnerSystem

/// The speech made for a box (docs/rules.md R33), in `.leitner/cache/voice/`: one WAV file a
/// text, voice and program, named by a hash of the three, so that a change of any of them makes
/// another file and an old one is never played for a new text. It is a cache: a sync tool need
/// not carry it (docs/sync.md), a missing file is made again, and files no test has used for
/// `keptFor` are removed (`prune`).
public struct VoiceCache: Sendable {
    /// Its place under the store's `.leitner/`.
    public static let directoryName = "cache/voice"
    /// How long a file no prepared test asked for is kept: 30 days.
    public static let keptFor: Int64 = 30 * 86_400_000
    /// How long a temporary may sit before it is taken for one a crash left: an hour.
    static let unfinishedFor: Int64 = 3_600_000

    /// The temporary holding `ext` while the speech `name` is made: `.HASH.wav.tmp` for the WAV
    /// the program writes before its rename, `.HASH.txt.tmp` for the text it reads. Hidden and
    /// ending in `.tmp`, as sync tools name their own temporaries and as ignore rules (`.*.tmp`,
    /// `*.tmp`) leave them out; never a `.wav`, so never played; `prune` removes a crash's.
    static func temporaryName(of name: String, holding ext: String) -> String {
        "." + (name.hasSuffix(".wav") ? String(name.dropLast(4)) : name) + "." + ext + ".tmp"
    }

    /// Whether `name` is a temporary of the cache (`temporaryName`), or one an earlier version
    /// named `HASH.wav.part` or `HASH.wav.txt.part`, which a crash may have left.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") || name.hasSuffix(".part")
    }

    /// The cache directory's absolute path.
    public let path: String

    /// - Parameter sharedStatePath: the store's `.leitner`.
    public init(sharedStatePath: String) {
        path = sharedStatePath + "/" + VoiceCache.directoryName
    }

    /// The file name of the speech of `text` in `voice` made by `program`: 32 hexadecimal digits
    /// (two FNV-1a hashes of 64 bits, of different offsets, over the three with a NUL between)
    /// and `.wav`.
    public static func fileName(text: String, voice: String, program: String) -> String {
        let bytes = Array(program.utf8) + [0] + Array(voice.utf8) + [0] + Array(text.utf8)
        return hex(fnv(bytes, offset: 0xcbf2_9ce4_8422_2325)) + hex(fnv(bytes, offset: 0x6c62_272e_07bb_0142)) + ".wav"
    }

    static func fnv(_ bytes: [UInt8], offset: UInt64) -> UInt64 {
        var hash = offset
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `bytes` begin as a WAV file with some sound in it: a RIFF header naming WAVE, and
    /// more than the 44 bytes of the header. A program that failed half-way leaves less.
    public static func isSpeech(_ header: [UInt8], size: Int) -> Bool {
        header.count >= 12 && header[0..<4].elementsEqual("RIFF".utf8) && header[8..<12].elementsEqual("WAVE".utf8) && size > 44
    }

    /// The file's path when it is there and whole; nil when it is to be made.
    public func ready(_ name: String) -> String? {
        let file = path + "/" + name
        return VoiceCache.isSpeechFile(file, in: nil) ? file : nil
    }

    /// Whether the file `name` is a regular file holding speech (`isSpeech`).
    static func isSpeechFile(_ name: String, in directory: FileDescriptor?) -> Bool {
        guard let file = try? FileDescriptor.open(name, relativeTo: directory, .readOnly, options: [.noFollow]) else { return false }
        defer { file.close() }
        guard let status = try? file.status(), status.isRegularFile, let header = try? file.read(at: 0, upTo: 12) else { return false }
        return isSpeech(header, size: Int(status.st_size))
    }

    /// Removes the speech no test has asked for in `keptFor` (a file's modification time is set
    /// each time a prepared test asks for it), and temporaries that a crash left, older than
    /// `unfinishedFor`; `keep` are kept whatever their age. `now` is the box's clock, in
    /// ms since the epoch.
    /// - Returns: the names removed.
    @discardableResult
    public func prune(now: Int64, keep: Set<String> = []) -> [String] {
        guard let directory = try? FileDescriptor.openDirectory(path, relativeTo: nil) else { return [] }
        defer { directory.close() }
        var names: [String] = []
        try? FileSystem.forEachEntry(directory) { name, kind in
            if kind == .file, !keep.contains(name) { names.append(name) }
        }
        var removed: [String] = []
        for name in names {
            guard let modified = (try? FileSystem.status(name, in: directory))?.modificationMilliseconds else { continue }
            let age = now - modified
            let stale = name.hasSuffix(".wav") ? age > VoiceCache.keptFor
                : VoiceCache.isTemporary(name) && age > VoiceCache.unfinishedFor
            if stale, (try? FileSystem.removeFile(name, in: directory)) != nil { removed.append(name) }
        }
        return removed.sorted()
    }
}
