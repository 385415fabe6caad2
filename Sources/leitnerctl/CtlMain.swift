import Glibc
import LeitnerClient
import LeitnerSystem

/// leitnerctl: parse the command line against the command table, run the command, map what
/// went wrong to one message and one documented exit status.
///
/// A function of its own, not top-level code in main.swift: top-level code is isolated to the
/// main actor, and a closure written there (`first { $0.name == name }`) gets Swift 6's dynamic
/// check of its executor. That check alone linked the concurrency runtime and libdispatch into
/// leitnerctl, whose initialiser ran before `main` in every process (`leitnerd` and
/// `leitner-web` start the same way and link neither).
enum CtlMain {
    static func main(arguments: [String]) -> Int32 {
        // The user's locale only where the C library speaks: `strerror`'s words (LC_MESSAGES)
        // in the user's language and character set (LC_CTYPE). leitnerctl formats numbers,
        // dates and widths itself, so the other categories would change nothing but cost a
        // file each to load at start.
        setlocale(LC_CTYPE, "")
        setlocale(LC_MESSAGES, "")
        // A closed standard output ends leitnerctl, as it ends any filter: `leitnerctl search |
        // head` stops once head has its lines, and its connection closes, so the daemon stops
        // the call (docs/daemon.md, "Streamed replies"). Started with SIGPIPE ignored (by a
        // service manager, a script's `trap '' PIPE`), each write failed with EPIPE unseen, and
        // leitnerctl read the whole search, or listing, to its end. Its sockets never raise it
        // (MSG_NOSIGNAL); the programs it starts are given the default themselves.
        SignalMask.restoreDefault(SIGPIPE)
        do {
            switch try CommandTable.parser.parse(arguments) {
            case .version:
                Console.out("leitnerctl \(Version.text)")
                return ExitStatus.success
            case .help(let name, _):
                if let name, let command = CommandTable.commands.first(where: { $0.name == name }) {
                    Console.write(CommandTable.help.command(command.spec))
                } else {
                    Console.write(CommandTable.help.overview)
                }
                return ExitStatus.success
            case .run(let name, let parsed, let globals):
                let context = try Context(globals: globals, command: name)
                let command = CommandTable.commands.first { $0.name == name }!
                try command.run(context, parsed)
                return ExitStatus.success
            }
        } catch let error as UsageError {
            Console.usage(error)
            return ExitStatus.usage
        } catch let failure as Failure {
            switch failure {
            case .usage(let error):
                Console.usage(error)
            case .unreachable(let message), .failed(let message): Console.error(message)
            case .quiet: break
            }
            return failure.exitStatus
        } catch {
            Console.error(DaemonErrors.message(for: error))
            return DaemonErrors.exitStatus(for: error)
        }
    }
}
