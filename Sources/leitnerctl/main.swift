import Glibc
import LeitnerClient
import LeitnerSystem

// leitnerctl: parse the command line against the command table, run the command, map what
// went wrong to one message and one documented exit status.
setlocale(LC_ALL, "")
let arguments = ProgramArguments.current()
let status: Int32
do {
    switch try CommandTable.parser.parse(arguments) {
    case .version:
        Console.out("leitnerctl \(Version.text)")
        status = ExitStatus.success
    case .help(let name, _):
        if let name, let command = CommandTable.commands.first(where: { $0.name == name }) {
            Console.write(CommandTable.help.command(command.spec))
        } else {
            Console.write(CommandTable.help.overview)
        }
        status = ExitStatus.success
    case .run(let name, let parsed, let globals):
        let context = try Context(globals: globals, command: name)
        let command = CommandTable.commands.first { $0.name == name }!
        try command.run(context, parsed)
        status = ExitStatus.success
    }
} catch let error as UsageError {
    Console.usage(error)
    status = ExitStatus.usage
} catch let failure as Failure {
    switch failure {
    case .usage(let error):
        Console.usage(error)
    case .unreachable(let message), .failed(let message): Console.error(message)
    case .quiet: break
    }
    status = failure.exitStatus
} catch {
    Console.error(DaemonErrors.message(for: error))
    status = DaemonErrors.exitStatus(for: error)
}
exit(status)
