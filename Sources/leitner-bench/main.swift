import Glibc
import LeitnerCore
import LeitnerSystem

// leitner-bench — builds stores of 10,000 and 100,000 cards and measures the box on them beside
// the bare system-call floor (README, "Benchmarks"; docs/performance.md).
//
//   leitner-bench [--dir DIR] [--sizes 10000,100000] [--grades 1000]
//   leitner-bench measure STORE GRADES LINES  (one measurement, in a fresh process: internal)
//   leitner-bench import DIR N             (import of N cards beside its floor, in a fresh process)
//   leitner-bench import-floor DIR N       (the floor of bench/daemon.py's `leitnerctl import` of N TSV cards)
//   leitner-bench open STORE ROUNDS        (opening the box alone, beside the names-only walk, alternately)
//   leitner-bench prepare STORE ROUNDS     (Prepare alone, the test opened anew each round)
//   leitner-bench prepare-new STORE ROUNDS N [PEER]  (the same with NewPerDay=N, a day later each round;
//                                           PEER, the same store with only the cards it admits in new/,
//                                           in turns on the same days)
//   leitner-bench settle STORE ROUNDS [MS] (Status while another device's delivery settles, SettleAfter=MS,
//                                           3000 by default; a store of 100,000 cards and two devices'
//                                           logs of 1,000,000 lines built first when STORE is missing)
//   leitner-bench copy-start STORE DIR ROUNDS (the first Status on a copy of STORE made a moment before
//                                           with cp -a, beside a warm restart of the copy, in turns)
//   leitner-bench build STORE N [NEW]      (a store of N cards and a review log of 10 lines a card, as the
//                                           run builds it, and NEW cards waiting in new/: for the commands above)
//   leitner-bench client SOCKET GRADES     (round trips to a running leitnerd: bench/daemon.py)
//   leitner-bench web STORE DIR GRADES     (the review through leitner-web beside Grade alone)
//   leitner-bench searches STORE [N]       (the first search, warm ones, the watches held; a store of
//                                           N cards built first when STORE is missing)
//   leitner-bench tags STORE DIR [N]       (list --tag and tags, one card in ten tagged, beside floors;
//                                           a store of N cards built first when STORE is missing)
//   leitner-bench notes STORE ROUNDS [N]   (a copy with one card in ten a cloze card of 3,000 notes and
//                                           200 with a picture: open and Show beside the plain store's)
//   leitner-bench notes-open STORE ROUNDS  (only the open and first request of `notes`, in turns, on a
//                                           copy STORE-notes-kept made once and kept for the next run)
//   leitner-bench notes-kill-open STORE ROUNDS  (the same after a kill, on the copy notes-open keeps)
//   leitner-bench notes-kill STORE ID     (opens the box, moves card ID, and is killed: internal)
//   leitner-bench voice DIR                (espeak-ng's speech of a 200-card test, and Prepare and Show
//                                           beside those without it)

func complain(_ message: String) {
    let line = Array("leitner-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Copies the store `from` to `to` with `cp -a`, no shell between: nil when done, else why not
/// (how `cp` ended, or the `errno` of starting it), for the message that says so.
func copyStore(_ from: String, to: String) -> String? {
    do {
        let termination = try ChildProcess.wait(for: try ChildProcess.spawn("cp", arguments: ["-a", from, to], searchPath: true))
        return termination == .exited(0) ? nil : "cp \(termination)"
    } catch {
        return "cannot start cp: \(error)"
    }
}
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "measure", arguments.count == 4, let grades = Int(arguments[2]), let lines = Int(arguments[3]) {
    try Measurement.run(store: arguments[1], grades: grades, logLines: lines)
    exit(0)
}
if arguments.first == "import", arguments.count == 3, let count = Int(arguments[2]) {
    try ImportMeasurement.run(directory: arguments[1], count: count)
    exit(0)
}
if arguments.first == "import-floor", arguments.count == 3, let count = Int(arguments[2]) {
    try ImportMeasurement.runTSVFloor(directory: arguments[1], count: count)
    exit(0)
}
if arguments.first == "open", arguments.count == 3, let rounds = Int(arguments[2]) {
    try OpenMeasurement.run(store: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "prepare", arguments.count == 3, let rounds = Int(arguments[2]) {
    try PrepareMeasurement.run(store: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "prepare-new", (4...5).contains(arguments.count), let rounds = Int(arguments[2]), let perDay = Int(arguments[3]) {
    try PrepareMeasurement.run(store: arguments[1], rounds: rounds, newPerDay: perDay, peer: arguments.count == 5 ? arguments[4] : nil)
    exit(0)
}
if arguments.first == "build", (3...4).contains(arguments.count), let count = Int(arguments[2]) {
    try StoreBuilder.build(at: arguments[1], count: count)
    try HistoryBuilder.build(at: arguments[1], cards: count, lines: count * 10)
    if arguments.count == 4, let waiting = Int(arguments[3]) { try StoreBuilder.addNew(at: arguments[1], count: waiting) }
    exit(0)
}
if arguments.first == "settle", (3...4).contains(arguments.count), let rounds = Int(arguments[2]) {
    try SettleMeasurement.run(store: arguments[1], rounds: rounds, settleAfter: arguments.count == 4 ? Int64(arguments[3]) ?? 3000 : 3000)
    exit(0)
}
if arguments.first == "history-start", arguments.count == 3, let rounds = Int(arguments[2]) {
    try HistoryStartMeasurement.run(directory: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "copy-start", arguments.count == 4, let rounds = Int(arguments[3]) {
    try CopyStartMeasurement.run(store: arguments[1], directory: arguments[2], rounds: rounds)
    exit(0)
}
if arguments.first == "client", arguments.count == 3, let grades = Int(arguments[2]) {
    try ClientMeasurement.run(socket: arguments[1], grades: grades)
    exit(0)
}

if arguments.first == "web", arguments.count == 4, let grades = Int(arguments[3]) {
    WebRoundTrip.run(store: arguments[1], in: arguments[2], grades: grades)
    exit(0)
}
if arguments.first == "searches", (2...3).contains(arguments.count) {
    if arguments.count == 3, access(arguments[1], F_OK) != 0, let count = Int(arguments[2]) {
        try StoreBuilder.build(at: arguments[1], count: count)
    }
    try SearchMeasurement.run(store: arguments[1])
    exit(0)
}
if arguments.first == "tags", (3...4).contains(arguments.count) {
    if arguments.count == 4, access(arguments[1], F_OK) != 0, let count = Int(arguments[3]) {
        try StoreBuilder.build(at: arguments[1], count: count)
    }
    try TagMeasurement.run(store: arguments[1], workDirectory: arguments[2])
    exit(0)
}
if arguments.first == "notes", (3...4).contains(arguments.count), let rounds = Int(arguments[2]) {
    if arguments.count == 4, access(arguments[1], F_OK) != 0, let count = Int(arguments[3]) {
        try StoreBuilder.build(at: arguments[1], count: count)
    }
    try NoteMeasurement.run(store: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "notes-open", arguments.count == 3, let rounds = Int(arguments[2]) {
    try NoteMeasurement.runOpens(store: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "notes-kill-open", arguments.count == 3, let rounds = Int(arguments[2]) {
    try NoteMeasurement.runKilledOpens(store: arguments[1], rounds: rounds)
    exit(0)
}
if arguments.first == "notes-kill", arguments.count == 3 {
    try NoteMeasurement.kill(arguments[1], moving: arguments[2])
}
if arguments.first == "voice", arguments.count == 2 {
    try VoiceMeasurement.run(workDirectory: arguments[1])
    exit(0)
}

var workDirectory = "/tmp/leitner-bench"
var sizes = [10_000, 100_000]
var grades = 1000
var index = 0
while index < arguments.count {
    switch arguments[index] {
    case "--dir" where index + 1 < arguments.count:
        workDirectory = arguments[index + 1]
        index += 1
    case "--sizes" where index + 1 < arguments.count:
        sizes = arguments[index + 1].split(separator: ",").compactMap { Int($0) }
        index += 1
    case "--grades" where index + 1 < arguments.count:
        grades = Int(arguments[index + 1]) ?? grades
        index += 1
    case "-h", "--help":
        print("Usage: leitner-bench [--dir DIR] [--sizes 10000,100000] [--grades 1000]")
        exit(0)
    default:
        complain("unknown argument '\(arguments[index])'")
        exit(ExitStatus.usage)
    }
    index += 1
}

mkdir(workDirectory, 0o755)
print("leitner-bench: stores under \(workDirectory)")
let floorDirectory = workDirectory + "/floor"
mkdir(floorDirectory, 0o755)
for kind in [Floors.SyncKind.append, .overwrite] {
    for renaming in [false, true] {
        let times = try Floors.sync(kind, renaming: renaming, in: floorDirectory, samples: 1000)
        let label = "floor: \(kind.rawValue)\(renaming ? " + rename" : "")"
        print("\(label + String(repeating: " ", count: max(1, 50 - label.count)))p50 \(Timing.ms(Timing.percentile(times, 0.5)))  p99 \(Timing.ms(Timing.percentile(times, 0.99)))")
    }
}

for size in sizes {
    let store = "\(workDirectory)/store-\(size)"
    if access(store + "/" + Box.stateDirectoryName, F_OK) == 0 || access(store, F_OK) == 0 {
        _ = system("rm -rf '\(store)'")
    }
    let buildTime = try Timing.secondsThrowing { try StoreBuilder.build(at: store, count: size) }
    // A review log of ten lines a card: a million lines at 100,000 cards, for `Stats`.
    let logLines = size * 10
    let historyTime = try Timing.secondsThrowing { try HistoryBuilder.build(at: store, cards: size, lines: logLines) }
    print("\n== \(size) cards (built in \(Int(buildTime)) s), a \(logLines)-line review log (written in \(Int(historyTime)) s)")
    // Warm the cache the way a running machine has it, then take the floors.
    _ = Floors.readdirWalk(store, statEach: false)
    let names = (0..<5).map { _ in Floors.readdirWalk(store, statEach: false) }.min()!
    let stats = (0..<3).map { _ in Floors.readdirWalk(store, statEach: true) }.min()!
    print("floor: readdir, names only        \(Timing.ms(names))")
    print("floor: readdir + stat per card    \(Timing.ms(stats))")
    let exe = CommandLine.arguments[0]
    fflush(nil) // the measurement's own lines must come after these
    let status = system("'\(exe)' measure '\(store)' \(grades) \(logLines)")
    if status != 0 { complain("measurement failed (\(status))") }
    // Start-up with the test the measurement left open, in turns with the names-only walk.
    if system("'\(exe)' open '\(store)' 9") != 0 { complain("the start-up measurement failed") }
    StatsRoundTrip.run(store: store, in: workDirectory)
    WebRoundTrip.run(store: store, in: workDirectory, grades: 300)
    // The import in a process of its own too, into an empty box beside its floor.
    if system("'\(exe)' import '\(workDirectory)' \(size)") != 0 { complain("import measurement failed") }
    // The best of three, as the listings are: the first warms the cache for them all.
    let cards = try (0..<3).map { _ in try Floors.readCards(store) }.min { $0.seconds < $1.seconds }!
    print("floor: read every card (dir, both sides) \(Timing.ms(cards.seconds))")
    do {
        let list = try ListMeasurement.run(store: store, workDirectory: workDirectory)
        print("daemon: leitnerctl list | wc -l      \(list.lines) lines, first in \(Timing.ms(list.firstLine)), all in "
              + "\(Timing.ms(list.all)) (\(Timing.ratio(list.all, cards.seconds)) the floor)")
        print("daemon: memory  resident after start \(list.rssAfterStart / 1024) MiB, peak during the listings \(list.peakDuringList / 1024) MiB")
    } catch {
        complain("the listing through leitnerd failed: \(error)")
    }
    // R23 at the largest size: Prepare with 100,000 cards waiting in new/, admitting 20 a day,
    // beside Prepare of the same store without them, in turns on the same days with the same
    // pacing (the floor). The paced store is a copy of this one (the same levels and log) plus
    // new/; the peer a copy with only the 180 cards its nine rounds admit in new/, so that both
    // make the same renames and flushes and only the waiting cards differ (and this store's days
    // stay as they were for the measurements after). Each in a process of its own, as the other
    // measurements are.
    if size == sizes.max() {
        let paced = store + "-new", peer = store + "-peer"
        _ = system("rm -rf '\(paced)' '\(peer)'")
        if let reason = copyStore(store, to: paced) { complain("cannot copy '\(store)' to '\(paced)': \(reason)") }
        if let reason = copyStore(store, to: peer) { complain("cannot copy '\(store)' to '\(peer)': \(reason)") }
        try StoreBuilder.addNew(at: paced, count: 100_000)
        try StoreBuilder.addNew(at: peer, count: 9 * 20)
        fflush(nil)
        if system("'\(exe)' prepare '\(store)' 9") != 0 { complain("the prepare measurement failed") }
        if system("'\(exe)' prepare-new '\(paced)' 9 20 '\(peer)'") != 0 { complain("the paced prepare measurement failed") }
        _ = system("rm -rf '\(paced)' '\(peer)'")
    }
    // #37 at the largest size: cloze notes and media on a copy of this store, and the voice of
    // a 200-card test, each in a process of its own (docs/performance.md, "Cloze notes and media").
    if size == sizes.max() {
        fflush(nil)
        if system("'\(exe)' notes '\(store)' 7") != 0 { complain("the notes measurement failed") }
        if system("'\(exe)' voice '\(workDirectory)'") != 0 { complain("the voice measurement failed") }
    }
    // Last: it gives one card in ten a tags file, which the measurements above do not expect.
    fflush(nil)
    if system("'\(exe)' tags '\(store)' '\(workDirectory)'") != 0 { complain("tags measurement failed") }

}
