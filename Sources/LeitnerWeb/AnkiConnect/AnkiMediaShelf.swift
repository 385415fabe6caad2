import Glibc
import LeitnerSystem

/// Where `storeMediaFile` keeps a file until the note that names it is added: Yomitan stores a
/// word's sound and pictures first, then adds the note whose fields say `[sound:NAME]` and
/// `<img src="NAME">`. A directory of leitner-web's state directory (`anki-media`, or
/// `NAME.anki-media` for box NAME; mode 0700), not the store: a file not yet in a card is no
/// part of the box. Each file is written atomically; a file older than `lifetime` is removed
/// when another is stored, so the shelf does not grow with files no note took.
public final class AnkiMediaShelf: Sendable {
    public let directory: String
    /// A day: a note is added seconds after its media are stored.
    static let lifetime: Int64 = 86_400
    /// The largest file kept: the door's body limit bounds it anyway.
    public static let maxFileSize = 32 << 20

    /// The shelf of box `box` (nil: the default box) in leitner-web's state directory.
    public init(stateDirectory: String, box: String?) {
        directory = stateDirectory + "/" + (box.map { $0 + "." } ?? "") + "anki-media"
    }

    /// Keeps `bytes` under `name` (a file name as `AnkiFieldText.isMediaName` takes), replacing
    /// a file of that name.
    func store(_ name: String, _ bytes: [UInt8], now: Int64) throws(AnkiError) {
        let dir = try open()
        defer { dir.close() }
        removeOld(in: dir, now: now)
        do throws(Errno) {
            try FileSystem.writeAtomically(bytes, to: name, in: dir, mode: 0o600)
        } catch {
            throw AnkiError("storeMediaFile: cannot write '\(directory)/\(name)': \(error)")
        }
    }

    /// The file stored under `name`, or nil when none is.
    func read(_ name: String) throws(AnkiError) -> [UInt8]? {
        let dir = try open()
        defer { dir.close() }
        do throws(Errno) {
            return try FileSystem.readFile(name, in: dir, limit: Self.maxFileSize)
        } catch where error == .noEntry {
            return nil
        } catch {
            throw AnkiError("cannot read the stored media file '\(directory)/\(name)': \(error)")
        }
    }

    private func open() throws(AnkiError) -> FileDescriptor {
        do throws(Errno) {
            try FileSystem.makeDirectories(directory, mode: 0o700)
            return try FileDescriptor.openDirectory(directory)
        } catch {
            throw AnkiError("cannot open the AnkiConnect media directory '\(directory)': \(error)")
        }
    }

    /// Removes the files stored more than `lifetime` ago; one that cannot be removed stays
    /// until the next time.
    private func removeOld(in dir: FileDescriptor, now: Int64) {
        guard let entries = try? FileSystem.list(dir) else { return }
        for entry in entries {
            guard let status = try? FileSystem.status(entry.name, in: dir),
                  Int64(status.st_mtim.tv_sec) + Self.lifetime < now else { continue }
            try? FileSystem.removeFile(entry.name, in: dir)
        }
    }
}
