/// How a box's speech is made (docs/rules.md R33): the `[Voice]` keys as the daemon uses them.
public struct VoiceSettings: Sendable, Equatable {
    /// The command that speaks (`Program=`: `espeak-ng`, or `piper --model FILE`), its words
    /// separated by spaces; nil: no voice.
    public var program: String?
    /// The voice of a card without a `lang:XX` tag (`Language=`); nil: the program's own.
    public var language: String?

    public init(program: String?, language: String?) {
        self.program = program
        self.language = language
    }

    /// The tag that names a card's language: `lang:de`.
    public static let languageTagPrefix = "lang:"

    /// The voice a card with `tags` is spoken in: its first `lang:XX` tag's XX, else
    /// `language`; "" for the program's own.
    public func voice(tags: [String]) -> String {
        for tag in tags where tag.hasPrefix(VoiceSettings.languageTagPrefix) {
            let language = tag.dropFirst(VoiceSettings.languageTagPrefix.count)
            if !language.isEmpty { return String(language) }
        }
        return language ?? ""
    }

    /// The program's arguments after its own words to speak standard input into `output` with
    /// `voice`: Piper takes its voice as its model (`--model`, in `Program=`) and writes with
    /// `--output_file`; espeak-ng (and espeak) take `-v VOICE -w FILE --stdin`.
    public static func arguments(for programWords: [String], voice: String, output: String) -> [String] {
        let name = programWords.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
        if name.hasPrefix("piper") { return ["--output_file", output] }
        return (voice.isEmpty ? [] : ["-v", voice]) + ["-w", output, "--stdin"]
    }
}
