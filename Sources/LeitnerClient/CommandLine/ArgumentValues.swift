import LeitnerCore

/// What may stand for an option's value or a positional argument, as far as a shell's completion
/// can offer it (`ShellCompletion`). Most follow from the placeholder the help already shows
/// (`LEVEL`, `FILE`, `DIR`, `COMMAND`, `correct|wrong`); an option whose placeholder says less
/// (`--sort ORDER`) names its values where it is declared.
public enum ArgumentValues: Sendable, Equatable {
    /// Anything; nothing to offer (an id, a tag, a number: card ids are not completed, as that
    /// would start a daemon on a mere Tab).
    case any
    case oneOf([String])
    /// A file or a directory's name.
    case file
    case directory
    /// A box's name (R29), read from the disk as `leitnerctl boxes` finds the boxes.
    case box
    /// A command of the program's own.
    case command

    /// The values a help placeholder stands for.
    public init(placeholder: String) {
        switch placeholder {
        case "LEVEL": self = .oneOf(Level.allCases.map(\.name))
        case "FILE", "PATH", "FILE|DIR": self = .file
        case "DIR": self = .directory
        case "COMMAND": self = .command
        default:
            // Words to choose from, written as they are typed: `correct|wrong`.
            let words = placeholder.split(separator: "|").map(String.init)
            let literal = words.count > 1 && words.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber } }
            self = literal ? .oneOf(words) : .any
        }
    }
}
