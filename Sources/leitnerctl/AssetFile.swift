import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// Turning what the user names into `Asset` parameters (docs/protocol.md): text as text, a file's
/// bytes as base64 data (text and Markdown files valid as UTF-8 as text). The daemon reads no
/// file a client names (R22): the content travels in the request.
enum AssetFile {
    /// The largest file leitnerctl sends as an asset.
    static let maxSize = 16 << 20 - 1 << 20

    /// A text side: `front.txt` (or `front.EXT`) with `text`.
    static func text(_ text: String, side: SideName, extension ext: String = "txt") -> Asset {
        Asset(name: "\(side.rawValue).\(ext)", text: text)
    }

    /// A picture or a sound for `add --media` (R31): the file's bytes under its own name, which
    /// must be one a side can name (`MediaName`) and not a side's; checked before the card is
    /// added, so that a bad one adds nothing.
    /// - Throws: `Failure.failed` naming the file and the reason.
    static func medium(_ path: String) throws -> Asset {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let type = MediaType.of(fileName: name)
        if let problem = MediaName.problem(name) { throw Failure.failed("'\(path)': the name \(problem)") }
        guard MediaName.kind(ofMediaType: type) != nil else {
            throw Failure.failed("'\(path)': not a picture or a sound (\(type)): .png, .jpg, .gif, .webp, .svg, .mp3, .ogg, .wav, .flac, .m4a, .opus")
        }
        if name.hasPrefix("front.") || name.hasPrefix("back.") {
            throw Failure.failed("'\(path)': '\(name)' is a side's file name; rename the file")
        }
        return try file(path, named: name)
    }

    /// A medium (R31) from the file at `path`, sent under `name`.
    /// - Throws: `Failure.failed` naming the file and the reason.
    static func file(_ path: String, named name: String) throws -> Asset {
        do {
            return Asset(name: name, content: try FileSystem.readFile(atPath: path, limit: maxSize))
        } catch {
            throw Failure.failed("cannot read '\(path)': \(error.rawValue == EFBIG ? "larger than \(maxSize >> 20) MiB" : error.description)")
        }
    }

    /// A side from the file at `path`, named `front.EXT` by its extension.
    /// - Throws: `Failure.failed` naming the file and the reason.
    static func file(_ path: String, side: SideName) throws -> Asset {
        // Read first: a file that is missing or a directory is that, whatever its name.
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path, limit: maxSize)
        } catch {
            throw Failure.failed("cannot read '\(path)': \(error.rawValue == EFBIG ? "larger than \(maxSize >> 20) MiB" : error.description)")
        }
        guard let ext = MediaType.fileExtension(path.split(separator: "/").last.map(String.init) ?? path) else {
            throw Failure.failed("'\(path)': the file has no extension to tell what it is (.txt, .md, .png, .mp3, …)")
        }
        // Text and Markdown valid as UTF-8 travel as text (`Asset.json` says how).
        return Asset(name: "\(side.rawValue).\(ext.lowercased())", content: bytes)
    }
}
