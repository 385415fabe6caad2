import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// Media that is not text: PNG images inline with the kitty graphics protocol on terminals
/// that speak it, else opened with `Viewer=`; audio played with `Player=`.
struct MediaOpener {
    let settings: ClientSettings

    /// True when the terminal speaks the kitty graphics protocol: kitty itself
    /// (`TERM=xterm-kitty`, `KITTY_WINDOW_ID`), or `LEITNER_KITTY_GRAPHICS=1` for others
    /// (WezTerm, Ghostty, Konsole).
    static var kittyGraphics: Bool {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if env("LEITNER_KITTY_GRAPHICS") == "0" { return false }
        return env("TERM") == "xterm-kitty" || env("KITTY_WINDOW_ID") != nil || env("LEITNER_KITTY_GRAPHICS") == "1"
    }

    /// The escape sequences that draw a PNG side inline, nil when the terminal cannot or the
    /// file cannot be read. The image travels as data (the terminal may be remote).
    func inlineImage(_ side: JSONValue) -> String? {
        guard MediaOpener.kittyGraphics, let bytes = try? FileSystem.readFile(atPath: side.string("path"), limit: 8 << 20) else {
            return nil
        }
        let encoded = Array(Base64.encode(bytes).utf8)
        var out = ""
        var offset = 0
        // Chunks of at most 4096 base64 bytes; m=1 says more follow.
        while offset < encoded.count {
            let end = min(offset + 4096, encoded.count)
            let chunk = String(decoding: encoded[offset..<end], as: UTF8.self)
            let more = end < encoded.count ? 1 : 0
            out += "\u{1B}_G" + (offset == 0 ? "a=T,f=100,q=2,m=\(more)" : "m=\(more)") + ";" + chunk + "\u{1B}\\"
            offset = end
        }
        return out
    }

    /// Opens a side that is neither text nor an inline image: images and other files with
    /// the viewer, audio with the player. Returns at once (the program runs detached).
    func open(_ side: JSONValue) {
        let mediaType = side.string("mediaType")
        if MediaType.isText(mediaType) { return }
        if mediaType == "image/png" && MediaOpener.kittyGraphics { return }
        let command = mediaType.hasPrefix("audio/") ? settings.player : settings.viewer
        guard let command, !command.isEmpty else { return }
        // The path is appended as one argument, whatever it holds.
        _ = try? DetachedProcess.spawn("/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", side.string("path")],
                                       logPath: "/dev/null")
    }
}
