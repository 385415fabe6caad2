/// Which image protocol a terminal speaks, from its answers to two queries and from its
/// environment (docs/leitnerctl.md, "Images"):
///
/// 1. kitty's graphics query, `ESC _ G i=31,s=1,v=1,a=q,t=d,f=24 ; AAAA ESC \`: a terminal that
///    speaks the protocol answers `ESC _ G i=31 ; OK ESC \`; others ignore it.
/// 2. DA1, `ESC [ c`, sent after it: every terminal answers (`ESC [ ? 62 ; 4 ; 22 c`); attribute
///    4 means sixel. Its answer also says the first query was read, so there is no need to wait
///    out the timeout on terminals that do not speak kitty's protocol.
///
/// `TERM_PROGRAM` (and `LC_TERMINAL`, which iTerm2 passes through ssh) name iTerm2 and WezTerm,
/// which draw iTerm2's inline images but do not announce them.
public enum ImageProtocolDetection {
    /// The kitty graphics query: a 1×1 RGB image, checked and not stored (`a=q`).
    public static let kittyQuery = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
    /// Primary device attributes.
    public static let deviceAttributesQuery = "\u{1B}[c"

    /// True once `reply` holds the answer to DA1 (the last query sent): nothing more will come.
    public static func isComplete(_ reply: [UInt8]) -> Bool {
        deviceAttributes(reply) != nil
    }

    /// The attributes of the DA1 answer in `reply` (`ESC [ ? 62 ; 4 c` → [62, 4]), nil when
    /// there is none yet.
    public static func deviceAttributes(_ reply: [UInt8]) -> [Int]? {
        let text = String(decoding: reply, as: UTF8.self)
        guard let start = text.firstRange(of: "\u{1B}[?") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "c") else { return nil }
        return rest[..<end].split(separator: ";").compactMap { Int($0) }
    }

    /// True when `reply` holds kitty's `OK` to the graphics query.
    public static func kittyAnswered(_ reply: [UInt8]) -> Bool {
        String(decoding: reply, as: UTF8.self).contains("\u{1B}_Gi=31;OK")
    }

    /// The protocol for a terminal that answered the queries with `reply` (all it sent before
    /// the DA1 answer or the timeout), whose environment is `environment`.
    public static func choose(reply: [UInt8], environment: [String: String]) -> ImageProtocol {
        if kittyAnswered(reply) { return .kitty }
        let program = environment["TERM_PROGRAM"] ?? ""
        if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2" {
            return .iterm
        }
        if deviceAttributes(reply)?.contains(4) == true { return .sixel }
        return .blocks
    }

    /// True when the terminal draws 24-bit colour (`COLORTERM=truecolor` or `24bit`), else
    /// half blocks use the 256 colours.
    public static func trueColor(environment: [String: String]) -> Bool {
        let value = environment["COLORTERM"] ?? ""
        return value == "truecolor" || value == "24bit"
    }
}
