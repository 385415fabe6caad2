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
        let dim = { (text: String) in views.style.apply(views.style.dim, text) }
        if let parts = views.parts(side) {
            return parts.flatMap { part -> [ScreenBlock] in
                switch part {
                case .lines(let lines): return lines.map(ScreenBlock.text)
                case .medium(let medium): return self.blocks(card, medium: medium, dim: dim, columns: columns, rows: rows)
                }
            }
        }
        if side.text != nil { return views.side(side).map(ScreenBlock.text) }
        if mediaType.hasPrefix("audio/") {
            return [.text("♪ " + dim("\(mediaType) · r plays it again"))]
        }
        guard mediaType.hasPrefix("image/"), images != .none else {
            return [.text(dim("[\(mediaType)] · o opens it"))]
        }
        return drawing("\(card.id)/\(name.rawValue)", mediaType: mediaType, columns: columns, rows: rows, dim: dim) {
            try asset(card, side: name)
        }
    }

    /// A picture or a sound a Markdown side names (R31): the picture drawn as an image side
    /// is, the sound one line saying which key plays it.
    private func blocks(_ card: Card, medium: Medium, dim: (String) -> String, columns: Int, rows: Int) -> [ScreenBlock] {
        if medium.mediaType.hasPrefix("audio/") {
            return [.text("♪ " + medium.name + dim(" · r plays it"))]
        }
        guard images != .none else { return [.text(dim("[\(medium.mediaType)] \(medium.name)"))] }
        return drawing("\(card.id)/medium/\(medium.name)", mediaType: medium.mediaType, columns: columns, rows: rows, dim: dim) {
            try self.medium(card, medium)
        }
    }

    /// The drawing of an image fetched by `fetch`, made once for each size (`key` names it).
    private func drawing(_ key: String, mediaType: String, columns: Int, rows: Int, dim: (String) -> String,
                         fetch: () throws -> (path: String, bytes: [UInt8])) -> [ScreenBlock] {
        let key = "\(key)/\(columns)x\(rows)"
        if let drawn = drawings[key] { return drawn }
        let drawn: [ScreenBlock]
        do {
            drawn = try draw(try fetch(), mediaType: mediaType, columns: columns, rows: rows, dim: dim)
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
        try fetch("\(card.id)/\(side.rawValue)", label: side.rawValue) { try context.box.readAsset(id: card.id, side: side).value }
    }

    /// The bytes of a medium of `card`'s sides (R31), fetched once with `ReadMedium`, and the
    /// private file that holds them.
    func medium(_ card: Card, _ medium: Medium) throws -> (path: String, bytes: [UInt8]) {
        try fetch("\(card.id)/medium/\(medium.name)", label: "medium") {
            try context.box.readMedium(id: card.id, name: medium.name).value
        }
    }

    /// What `read` returns, written once into the private directory under a name of its own
    /// (`N-LABEL.EXT`), whatever the card's file is called.
    private func fetch(_ key: String, label: String, read: () throws -> Asset) throws -> (path: String, bytes: [UInt8]) {
        if let known = fetched[key] { return known }
        let asset = try read()
        let bytes = asset.content
        let directory = try privateDirectory()
        let ext = MediaType.fileExtension(asset.name).map { ".\($0)" } ?? ""
        let path = "\(directory)/\(fetched.count)-\(label)\(ext)"
        do {
            let file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            defer { file.close() }
            try file.writeAll(Array(bytes))
        } catch {
            throw Failure.failed("cannot write '\(path)': \(error)")
        }
        fetched[key] = (path, Array(bytes))
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

    /// Plays `side` of `card` when it is audio; `asked` when a key asked for it (`r`), not the
    /// side coming into view.
    /// - Returns: one line for the person when it cannot be played, else nil.
    func playIfAudio(_ card: Card, side: SideName, asked: Bool) -> String? {
        guard card.side(side).mediaType.hasPrefix("audio/") else { return nil }
        do {
            return audio.play(try asset(card, side: side).path, log: try playerLog(), asked: asked)
        } catch {
            return DaemonErrors.message(for: error)
        }
    }

    /// The sounds the sides shown name (R31), the front's first.
    func sounds(_ card: Card, flipped: Bool) -> [Medium] {
        (flipped ? [card.front, card.back] : [card.front]).flatMap(\.media).filter { $0.mediaType.hasPrefix("audio/") }
    }

    /// Plays the `index`th sound the sides shown name (`r`, again and again: the next).
    /// - Returns: one line saying what plays, or why nothing does.
    func playSound(_ card: Card, flipped: Bool, index: Int) -> String {
        let sounds = sounds(card, flipped: flipped)
        guard !sounds.isEmpty else { return "" }
        let sound = sounds[index % sounds.count]
        do {
            return audio.play(try medium(card, sound).path, log: try playerLog(), asked: true) ?? "♪ \(sound.name)"
        } catch {
            return DaemonErrors.message(for: error)
        }
    }

    /// Why the voice cannot speak, once said: a review that speaks by itself says it once, not
    /// at every card (R33).
    private var voiceProblemSaid = false

    /// Speaks `side` of `card` (`v`, or `AutoSpeak=` when `automatic`): plays the speech the
    /// daemon made ahead of time with `Player=`, and never waits for it to be made.
    /// - Returns: one line for the person (what plays, not ready, or why there is none); nil
    ///   when the review speaks by itself and it plays.
    func speak(_ card: Card, side: SideName, automatic: Bool = false) -> String? {
        let reply: SpeechReply
        do {
            reply = try context.box.speech(id: card.id, side: side).value
        } catch {
            return DaemonErrors.message(for: error)
        }
        if let path = reply.path {
            // The daemon's file, when this user may read it; else its bytes, through the socket.
            do {
                var file = path
                if access(path, R_OK) != 0 {
                    guard let data = try context.box.speech(id: card.id, side: side, withData: true).value.data else {
                        return "the voice is not ready yet"
                    }
                    file = try keep(data, as: "\(card.id)-\(side.rawValue)-voice.wav")
                }
                // Said at once on `v`: a player that then finds no sound device says so (`AudioPlayer.ended`).
                return audio.play(file, log: try playerLog(), asked: !automatic) ?? (automatic ? nil : "♪ the voice of the \(side.rawValue)")
            } catch {
                return DaemonErrors.message(for: error)
            }
        }
        if reply.pending { return "the voice of this side is being made: v plays it in a moment" }
        guard let problem = reply.problem else { return nil }
        if automatic && voiceProblemSaid { return nil }
        voiceProblemSaid = true
        return problem
    }

    /// The file the player's standard error goes to, in the private directory.
    private func playerLog() throws -> String { try privateDirectory() + "/" + AudioPlayer.logName }

    /// Writes `bytes` into the private directory as `name`.
    private func keep(_ bytes: [UInt8], as name: String) throws -> String {
        let path = try privateDirectory() + "/" + name
        do {
            let file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o600)
            defer { file.close() }
            try file.writeAll(bytes)
        } catch {
            throw Failure.failed("cannot write '\(path)': \(error)")
        }
        fetched["voice/" + name] = (path, [])
        return path
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
        unlink(directory + "/" + AudioPlayer.logName)
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
