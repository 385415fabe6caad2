import LeitnerClient
import LeitnerCore

/// Every option of leitnerctl, named once: `CommandTable` declares each command's options with
/// these, and the commands read them back with the same, so that a misspelt option is a compile
/// error (and one a command does not declare fails its debug build's assertion).
extension OptionName {
    // Global options.
    static let socket = OptionName("--socket")
    static let config = OptionName("--config")
    static let box = OptionName("--box")
    static let json = OptionName("--json")
    static let noAutostart = OptionName("--no-autostart")
    static let help = OptionName("--help")
    static let version = OptionName("--version")

    // The commands' options.
    static let plain = OptionName("--plain")
    static let images = OptionName("--images")
    static let type = OptionName("--type")
    static let frontFile = OptionName("--front-file")
    static let backFile = OptionName("--back-file")
    static let id = OptionName("--id")
    static let level = OptionName("--level")
    static let force = OptionName("--force")
    static let format = OptionName("--format")
    static let withLevels = OptionName("--with-levels")
    static let quiet = OptionName("--quiet")
    static let dir = OptionName("--dir")
    static let long = OptionName("--long")
    static let sort = OptionName("--sort")
    static let front = OptionName("--front")
    static let back = OptionName("--back")
    static let saveAs = OptionName("--as")
    static let yes = OptionName("--yes")
    static let since = OptionName("--since")
    static let limit = OptionName("--limit")
    static let all = OptionName("--all")
    static let resolve = OptionName("--resolve")
    static let keep = OptionName("--keep")
    static let days = OptionName("--days")
    static let leeches = OptionName("--leeches")
    static let html = OptionName("--html")
    static let time = OptionName("--time")
    static let regex = OptionName("--regex")
    static let ids = OptionName("--ids")
    static let listen = OptionName("--listen")
    static let pair = OptionName("--pair")
    static let devices = OptionName("--devices")
    static let revoke = OptionName("--revoke")
    static let ankiKey = OptionName("--anki-key")
    static let tag = OptionName("--tag")
    static let notTag = OptionName("--not-tag")
    static let search = OptionName("--search")
    static let wrongDays = OptionName("--wrong-days")
    static let shuffle = OptionName("--shuffle")
    static let reverse = OptionName("--reverse")
    static let keepProgress = OptionName("--keep-progress")
    static let deck = OptionName("--deck")
    static let cloze = OptionName("--cloze")
    static let extra = OptionName("--extra")
    static let media = OptionName("--media")
    static let keepReverses = OptionName("--keep-reverses")
    static let typeAnswer = OptionName("--type-answer")

    /// `--front` or `--back`: the side a command is limited to.
    static func only(_ side: SideName) -> OptionName { side == .front ? front : back }

    /// `--front-file` or `--back-file`: a side read from a file.
    static func file(_ side: SideName) -> OptionName { side == .front ? frontFile : backFile }
}
