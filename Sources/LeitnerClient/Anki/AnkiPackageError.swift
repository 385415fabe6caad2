/// Why an Anki package cannot be read. The command puts the package's path in front
/// (`cannot import 'deck.apkg': …`).
public enum AnkiPackageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// None of the programs that can do a step is installed: each named with its package.
    case missingProgram(String)
    case programFailed(String, what: String, reason: String)
    /// The package lacks a file it must hold, or holds one that is not what its format says.
    case damaged(String)
    case system(String)

    public var description: String {
        switch self {
        case .missingProgram(let programs): "reading an Anki package needs \(programs), which is not installed"
        case .programFailed(let program, let what, let reason): "'\(program)' failed to \(what): \(reason)"
        case .damaged(let reason): "not a package Anki wrote: \(reason)"
        case .system(let reason): reason
        }
    }
}
