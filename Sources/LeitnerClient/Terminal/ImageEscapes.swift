import LeitnerProtocol
import LeitnerVarlink

/// The escape sequences that draw an image from its file's bytes, for the two protocols that
/// take PNG or JPEG as they are. The image travels in the output (the terminal may be on
/// another machine, over ssh), base64 encoded.
public enum ImageEscapes {
    /// kitty's graphics protocol: PNG (`f=100`) scaled into `columns` × `rows` cells at the
    /// cursor, sent in chunks of at most 4096 base64 bytes (`m=1` while more follow), no reply
    /// wanted (`q=2`), the cursor left where it was (`C=1`).
    public static func kitty(png: [UInt8], columns: Int, rows: Int) -> String {
        let encoded = Array(Base64.encode(png).utf8)
        var out = ""
        var offset = 0
        repeat {
            let end = min(offset + 4096, encoded.count)
            let more = end < encoded.count ? 1 : 0
            let control = offset == 0 ? "a=T,f=100,t=d,q=2,C=1,c=\(columns),r=\(rows),m=\(more)" : "m=\(more)"
            out += "\u{1B}_G" + control + ";" + String(decoding: encoded[offset..<end], as: UTF8.self) + "\u{1B}\\"
            offset = end
        } while offset < encoded.count
        return out
    }

    /// Deletes every image kitty shows (before the screen is drawn again).
    public static let kittyDeleteAll = "\u{1B}_Ga=d,q=2\u{1B}\\"

    /// iTerm2's inline image (`OSC 1337 ; File=`), fitted into `columns` × `rows` cells with
    /// its aspect ratio kept.
    public static func iterm(_ bytes: [UInt8], columns: Int, rows: Int) -> String {
        "\u{1B}]1337;File=inline=1;size=\(bytes.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
            + Base64.encode(bytes) + "\u{07}"
    }
}
