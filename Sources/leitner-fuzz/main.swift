import Glibc
import LeitnerSystem

// leitner-fuzz: calls every method of the daemon's interfaces, read from the daemon itself, with
// the edges of each parameter's type, then random valid calls for a budget of seconds, checking
// after each that the daemon lives, answers and keeps its box whole (docs/protocol.md,
// "Fuzzing"). The seed it prints replays the run. Exit 0: nothing found; 1: a failure, printed
// with the call and the seed; 64: a bad command line.

signal(SIGPIPE, SIG_IGN)

/// Writes a line to standard output at once, so that `make check` shows the run as it goes.
func say(_ message: String) {
    let line = Array("\(message)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

let executable = CommandLine.arguments[0]
let programDirectory = executable.contains("/") ? String(executable[..<executable.lastIndex(of: "/")!]) : "."
let options: FuzzOptions
do {
    options = try FuzzOptions.parse(Array(CommandLine.arguments.dropFirst()), programDirectory: programDirectory)
} catch {
    let line = Array("leitner-fuzz: \(error)\n\(FuzzOptions.usage)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(64)
}

if options.http {
    say("leitner-fuzz --http: seed \(options.seed), budget \(Int(options.budget)) s")
    let web: HTTPFuzzSession
    do {
        web = try HTTPFuzzSession(options: options)
    } catch {
        say("leitner-fuzz: \(error)")
        exit(1)
    }
    do {
        try web.run()
    } catch {
        web.stop()
        say(web.report(error))
        exit(1)
    }
    web.cleanUp()
    let forms = web.forms
    say("leitner-fuzz --http: seed \(options.seed): \(web.requests) requests, the server answered each and kept serving: nothing found; "
        + "of \(forms.sent) whole multipart forms to the add page, \(forms.added) added a card, \(forms.refusedBesideAField) were refused beside a field, "
        + "\(forms.unreadable) were unreadable to the form's parser, \(forms.other) got another answer; paired again \(web.pairings) times")
    exit(0)
}

let replay = "leitner-fuzz --seed \(options.seed) --budget \(Int(options.budget))"
say("leitner-fuzz: seed \(options.seed), budget \(Int(options.budget)) s (replay: \(replay))")
let session: FuzzSession
do {
    session = try FuzzSession(options: options)
} catch {
    say("leitner-fuzz: \(error)")
    exit(1)
}
let started = FuzzSession.now()
do {
    try session.run()
} catch {
    session.stopAfterFailure()
    say("""
        leitner-fuzz: FAILURE with seed \(options.seed), in the \(session.phase), after \(session.calls) calls:
          \(error.description.split(separator: "\n").joined(separator: "\n  "))
          replay: \(replay)
          store and daemon log kept in \(session.directory); leitnerd's last messages:
        \(session.daemonLogTail())
        """)
    exit(1)
}
session.cleanUp()
say("leitner-fuzz: the answers, by method:\n" + session.outcomeReport())
say("leitner-fuzz: seed \(options.seed): \(session.edgeCalls) edge calls, \(session.randomSteps) random steps, "
      + "\(session.calls) calls in all, \(session.restarts) restarts, \(session.handChanges) changes by hand, "
      + "\(session.clockMoves) clock moves, \(session.bursts) bursts, \(Int(FuzzSession.now() - started)) s: nothing found")
