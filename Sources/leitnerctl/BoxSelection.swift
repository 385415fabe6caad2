import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerSystem

/// Which box a command is for (R29, docs/leitnerctl.md "Several boxes"), and whether it may
/// make that box.
enum BoxSelection {
    /// The commands that make a box that was never made: the ones that put cards in it. Any
    /// other command on such a box is refused rather than autostarting a daemon that would
    /// leave an empty store behind a mistyped name.
    static let creatingCommands: Set<String> = ["add", "import"]

    /// The box named by `--box`, else by `LEITNER_BOX` (empty: unset); nil: the default box.
    /// - Throws: `Failure.usage` (exit 64) for a name that breaks the rules of `BoxName`.
    static func selected(_ globals: ParsedArguments) throws -> String? {
        let name: String
        let what: String
        if let option = globals[.box] {
            (name, what) = (option, "box name")
        } else if let variable = getenv("LEITNER_BOX"), variable.pointee != 0 {
            (name, what) = (String(cString: variable), "box name in LEITNER_BOX")
        } else {
            return nil
        }
        if let reason = BoxName.problem(name) {
            throw Failure.usage(.invalidValue(name, what: what, reason: reason, command: nil))
        }
        return name
    }

    /// Returns when the box of `settings` may be started: it is the default box, it was made
    /// (it has a configuration file, or its store directory exists), or the command makes it.
    /// - Throws: `Failure.failed` naming where the box was looked for and how to make it.
    static func requireMade(_ settings: ClientSettings) throws {
        guard let box = settings.box, !settings.mayCreateBox, settings.configurationSource == nil,
              !isDirectory(settings.storePath) else { return }
        let configuration = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment(), box: box)
            .userConfigurationPath
        throw Failure.failed("""
            no box '\(box)': no '\(configuration)', no store '\(settings.storePath)', nothing answers on \
            '\(settings.socketPath)'; 'leitnerctl --box \(box) add …' or 'import …' makes it ('leitnerctl boxes' lists the boxes)
            """)
    }

    /// True when `path` is a directory (or a link to one).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
