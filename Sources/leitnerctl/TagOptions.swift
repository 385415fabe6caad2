import LeitnerClient
import LeitnerCore

/// The filter by tag of the commands that take one (R25): `--tag TAG` (repeatable: a card with
/// any of them, or a tag below one, `ja` selecting `ja:kana`) and `--not-tag TAG` (repeatable:
/// none of them). Checked here, so that a bad tag is a usage error before the daemon is asked.
struct TagOptions {
    var tags: [String]
    var notTags: [String]

    static let specs = [
        OptionSpec(.tag, value: "TAG", help: "only cards with this tag or one below it (ja: ja, ja:kana); repeat for any of several"),
        OptionSpec(.notTag, value: "TAG", help: "leave out cards with this tag or one below it; repeatable"),
    ]

    /// The filter given to `command`, nil when none was.
    /// - Throws: a usage error naming a tag that breaks R25's rules.
    static func given(_ arguments: ParsedArguments, command: String) throws -> TagOptions? {
        let options = TagOptions(tags: try tags(arguments.all(.tag), command: command),
                                 notTags: try tags(arguments.all(.notTag), command: command))
        return options.tags.isEmpty && options.notTags.isEmpty ? nil : options
    }

    /// What to say when the filter chose no card: `no card is tagged 'nosuch'`, narrowed by
    /// the tags left out and the level when they were given.
    func noneChosen(level: Level?) -> String {
        func quoted(_ tags: [String], _ joint: String) -> String {
            tags.map { "'\($0)'" }.joined(separator: joint)
        }
        let place = level.map { " in " + Views.place($0) } ?? ""
        let text = tags.isEmpty ? "every card\(place) is tagged " + quoted(notTags, " or ")
            : "no card\(place) is tagged " + quoted(tags, " or ") + (notTags.isEmpty ? "" : " but not " + quoted(notTags, " or "))
        return text + " ('leitnerctl tags' lists the box's tags)"
    }

    /// Tags given on the command line, each checked.
    static func tags(_ values: [String], command: String) throws -> [String] {
        for tag in values {
            if let reason = CardTag.problem(tag) {
                throw Failure.usage(.invalidValue(tag, what: "tag", reason: reason, command: command))
            }
        }
        return values
    }
}
