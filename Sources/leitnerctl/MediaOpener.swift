import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// A card's sides that are not text, for the review (docs/leitnerctl.md, "Images and sound"):
/// fetched from the daemon with `ReadAsset` (the store may belong to another user, or the
/// daemon to a system service), kept in a private temporary directory for the programs that
/// take a file (chafa, the player, the viewer), drawn with the terminal's image protocol,
/// played, or opened with `Viewer=`.
final class MediaOpener {
    let context: Context
    let images: ImageProtocol
    let trueColor: Bool
    let audio: AudioPlayer
    /// The private directory of fetched assets, made on first use, removed by `finish()`.
    private var directory: String?
    /// Fetched assets by `ID/SIDE`: their file and bytes.
    private var fetched: [String: (path: String, bytes: [UInt8])] = [:]
    /// Drawings made by chafa, by `ID/SIDE/COLUMNSxROWS` (a redraw while scrolling is instant).
    private var drawings: [String: [ScreenBlock]] = [:]

    init(context: Context, images: ImageProtocol) {
        self.context = context
        self.images = images
        trueColor = ImageProtocolDetection.trueColor(environment: MediaOpener.environment)
        audio = AudioPlayer(command: context.settings.player)
    }

    /// The process's environment, for the detection's hints.
    static var environment: [String: String] {
        var out: [String: String] = [:]
        for name in ["TERM_PROGRAM", "LC_TERMINAL", "COLORTERM", "TERM"] {
            if let value = getenv(name) { out[name] = String(cString: value) }
        }
        return out
    }

    /// The blocks that show `side` of `card` in a body `columns` wide with `rows` lines:
    /// text wrapped (Markdown rendered), an image drawn, audio and other files as one line.
    func blocks(_ card: Card, side name: SideName, views: Views, columns: Int, rows: Int) -> [ScreenBlock] {
        let side = card.side(name)
        let mediaType = side.mediaType
        if side.text != nil { return views.side(side).map(ScreenBlock.text) }
        let dim = { (text: String) in views.style.apply(views.style.dim, text) }
        if mediaType.hasPrefix("audio/") {
            return [.text("♪ " + dim("\(mediaType) · r plays it again"))]
        }
        guard mediaType.hasPrefix("image/"), images != .none else {
            return [.text(dim("[\(mediaType)] · o opens it"))]
        }
        let key = "\(card.id)/\(name.rawValue)/\(columns)x\(rows)"
        if let drawn = drawings[key] { return drawn }
        let drawn: [ScreenBlock]
        do {
            drawn = try draw(try asset(card, side: name), mediaType: mediaType, columns: columns, rows: rows, dim: dim)
        } catch {
            return [.text(dim("[\(mediaType)] " + DaemonErrors.message(for: error)))]
        }
        drawings[key] = drawn
        return drawn
    }

    /// An image in the chosen protocol: PNG (and for iTerm2 JPEG and GIF) sent as they are,
    /// anything else through chafa.
    private func draw(_ asset: (path: String, bytes: [UInt8]), mediaType: String, columns: Int, rows: Int,
                      dim: (String) -> String) throws -> [ScreenBlock] {
        let cells = ImageSize(asset.bytes)?.cells(columns: columns, rows: rows) ?? (columns: min(columns, 40), rows: min(rows, 12))
        switch images {
        case .kitty where mediaType == "image/png":
            return [.image(rows: cells.rows, drawing: ImageEscapes.kitty(png: asset.bytes, columns: cells.columns, rows: cells.rows))]
        case .iterm where ["image/png", "image/jpeg", "image/gif"].contains(mediaType):
            return [.image(rows: cells.rows, drawing: ImageEscapes.iterm(asset.bytes, columns: cells.columns, rows: cells.rows))]
        default:
            break
        }
        let format = images == .blocks ? "symbols" : images == .sixel ? "sixels" : images.rawValue
        var arguments = ["--format=\(format)", "--size=\(cells.columns)x\(cells.rows)", "--animate=off",
                         "--polite=on", "--optimize=0"]
        if images == .blocks { arguments += ["--symbols=vhalf", "--colors=\(trueColor ? "full" : "256")"] }
        let result: (termination: ChildProcess.Termination, output: [UInt8])
        do throws(Errno) {
            result = try ChildProcess.output(of: "chafa", arguments: arguments + ["--", asset.path])
        } catch {
            if error.rawValue == ENOENT {
                return [.text(dim("[\(mediaType)] to see images here, install chafa (apt install chafa); o opens it"))]
            }
            return [.text(dim("[\(mediaType)] cannot run chafa: \(error); o opens it"))]
        }
        guard result.termination == .exited(0) else {
            return [.text(dim("[\(mediaType)] chafa could not draw it (\(result.termination)); o opens it"))]
        }
        let text = String(decoding: result.output, as: UTF8.self)
        if images == .blocks {
            // Lines of coloured half blocks: scrolled like text. The cursor is left alone.
            return text.split(separator: "\n").map { .text(String($0).replacingAll("\u{1B}[?25l", "").replacingAll("\u{1B}[?25h", "")) }
        }
        return [.image(rows: cells.rows, drawing: text.trimmingTrailingNewlines())]
    }

    /// The bytes of `side` of `card`, fetched once, and the private file that holds them.
    /// - Throws: the daemon's error, or `Failure.failed` when the file cannot be written.
    func asset(_ card: Card, side: SideName) throws -> (path: String, bytes: [UInt8]) {
        let id = card.id
        if let known = fetched["\(id)/\(side.rawValue)"] { return known }
        let asset = try context.box.readAsset(id: id, side: side).value
        let bytes = asset.content
        let directory = try privateDirectory()
        let ext = MediaType.fileExtension(asset.name).map { ".\($0)" } ?? ""
        let path = "\(directory)/\(fetched.count)-\(side.rawValue)\(ext)"
        do {
            let file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            defer { file.close() }
            try file.writeAll(Array(bytes))
        } catch {
            throw Failure.failed("cannot write '\(path)': \(error)")
        }
        fetched["\(id)/\(side.rawValue)"] = (path, Array(bytes))
        return (path, Array(bytes))
    }

    /// `$TMPDIR/leitnerctl-XXXXXX`, mode 0700: the assets are the user's cards.
    private func privateDirectory() throws -> String {
        if let directory { return directory }
        let made: String
        do { made = try FileSystem.makeTemporaryDirectory(prefix: "leitnerctl") } catch {
            throw Failure.failed("cannot make a directory in '\(FileSystem.temporaryBase)': \(error)")
        }
        directory = made
        return made
    }

    /// Plays `side` of `card` when it is audio.
    /// - Returns: one line for the person when it cannot be played, else nil.
    func playIfAudio(_ card: Card, side: SideName) -> String? {
        guard card.side(side).mediaType.hasPrefix("audio/") else { return nil }
        do {
            return audio.play(try asset(card, side: side).path)
        } catch {
            return DaemonErrors.message(for: error)
        }
    }

    /// Opens `side` of `card` with `Viewer=` (`o`), detached.
    /// - Returns: one line saying what happened.
    func open(_ card: Card, side: SideName) -> String {
        guard let viewer = context.settings.viewer, !viewer.isEmpty else {
            return "no viewer: install xdg-utils, or set Viewer="
        }
        do {
            let path = try asset(card, side: side).path
            // The path is appended as one argument, whatever it holds.
            _ = try DetachedProcess.spawn("/bin/sh", arguments: ["-c", viewer + " \"$1\"", "sh", path], logPath: "/dev/null")
            return "opened with \(viewer)"
        } catch {
            return "cannot open it with '\(viewer)': \(DaemonErrors.message(for: error))"
        }
    }

    /// Stops the sound and removes the fetched files. A viewer still starting may lose its
    /// file: it is opened when it starts, and the review ends after it.
    func finish() {
        audio.stop()
        guard let directory else { return }
        for (_, asset) in fetched { unlink(asset.path) }
        rmdir(directory)
        self.directory = nil
        fetched = [:]
    }
}

extension String {
    /// The text with every `target` replaced by `replacement`.
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// The text without the line ends at its end.
    func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last == "\n" || copy.last == "\r\n" { copy.removeLast() }
        return copy
    }
}
