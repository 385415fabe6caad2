import Glibc
import LeitnerCore
import LeitnerSystem

/// #37's figures for notes and media (docs/performance.md, "Cloze notes and media"), on a copy
/// of a built store in which one card in ten became a cloze card of a note (R30) — 10,000 of
/// 100,000, in 3,000 notes of three or four numbers — and 200 other cards a Markdown front
/// showing a picture beside it (R31), in the same levels:
/// - opening the box and its first request (the store's scan, the notes read), beside the same
///   on the store without them, in turns;
/// - the same after a daemon was killed, beside the store without notes after the same;
/// - `Show` of a cloze card beside `Show` of a plain card, and of a card with a picture beside
///   one without, in turns on the same open box.
enum NoteMeasurement {
    static let notes = 3_000
    static let mediaCards = 200

    static func run(store: String, rounds: Int) throws {
        let copy = store + "-notes"
        _ = system("rm -rf '\(copy)'")
        if let reason = copyStore(store, to: copy) {
            complain("cannot copy '\(store)' to '\(copy)': \(reason)")
            return
        }
        defer { _ = system("rm -rf '\(copy)'") }
        let made = try convert(copy)
        try compareOpens(store: store, copy: copy, rounds: rounds, label: "\(made.cloze) cards made cloze cards of \(made.notes) notes")
        try compareKilledOpens(store: store, copy: copy, rounds: rounds, moving: made.plainIDs[0])
        let box = try openAndAsk(copy)
        defer { box.close() }
        try compare("Show of a cloze card", made.clozeIDs, "Show of a plain card", made.plainIDs, box: box)
        try compare("Show of a card with a picture", made.mediaIDs, "Show of a plain card", made.plainIDs, box: box)
    }

    /// The open and first request alone, in turns, on a copy `STORE-notes-kept` converted once
    /// and kept for the next run (`notes` copies the store afresh each run, minutes at 100,000
    /// cards on a busy machine): for measuring one change of the open against another.
    static func runOpens(store: String, rounds: Int) throws {
        let copy = store + "-notes-kept"
        if access(copy, F_OK) != 0 {
            if let reason = copyStore(store, to: copy + ".tmp") {
                complain("cannot copy '\(store)' to '\(copy).tmp': \(reason)")
                return
            }
            _ = try convert(copy + ".tmp")
            do {
                try FileSystem.rename(copy + ".tmp", in: nil, to: copy, in: nil)
            } catch {
                complain("cannot rename '\(copy).tmp' to '\(copy)': \(error)")
                return
            }
        }
        // The kept copy was converted by an earlier run: its counts are `convert`'s, not read again.
        try compareOpens(store: store, copy: copy, rounds: rounds, label: "one card in ten made a cloze card of one of \(notes) notes")
    }

    /// `runOpens` after a kill: each store's daemon killed once it had logged a change, then
    /// opened and asked, in turns, on the kept copy (`notes` copies the store afresh each run).
    static func runKilledOpens(store: String, rounds: Int) throws {
        let copy = store + "-notes-kept"
        guard access(copy, F_OK) == 0 else {
            complain("no '\(copy)': run notes-open first, which makes it")
            return
        }
        // `card-1-benchmark` is a plain card in either store (`convert` leaves N % 10 = 1 alone).
        try compareKilledOpens(store: store, copy: copy, rounds: rounds, moving: "card-1-benchmark")
    }

    /// The open and first request after a daemon was killed once it had logged a change (`kill`,
    /// in a process of its own, moving card `id`), the two stores in turns.
    static func compareKilledOpens(store: String, copy: String, rounds: Int, moving id: String) throws {
        var plainKilled: [Double] = []
        var notesKilled: [Double] = []
        for _ in 0..<max(1, rounds) {
            for (path, isNotes) in [(store, false), (copy, true)] {
                fflush(nil)
                // `exec`: the shell is the killed process, and says nothing of it.
                _ = system("exec '\(CommandLine.arguments[0])' notes-kill '\(path)' '\(id)'")
                var box: Box?
                let time = try Timing.secondsThrowing { box = try openAndAsk(path) }
                box?.close()
                box = nil
                if isNotes { notesKilled.append(time) } else { plainKilled.append(time) }
            }
        }
        let plainAfter = Timing.percentile(plainKilled, 0.5), notesAfter = Timing.percentile(notesKilled, 0.5)
        print("box: open and first request after a kill, the store with notes, \(notesKilled.count) rounds  p50 \(Timing.ms(notesAfter)); "
              + "peer: the same store without them  p50 \(Timing.ms(plainAfter)); \(Timing.ratio(notesAfter, plainAfter)) at p50")
    }

    /// Opens `store` and `copy` (the store with notes) in turns, each asked its first request,
    /// and prints the p50 of each beside the other.
    static func compareOpens(store: String, copy: String, rounds: Int, label: String) throws {
        // Each store opened once untimed: the copy's first open takes in the changed cards.
        for path in [store, copy] { try openAndAsk(path).close() }
        var plainOpens: [Double] = []
        var noteOpens: [Double] = []
        for _ in 0..<max(1, rounds) {
            // Each box closed and freed before the next is timed: assigned over, the plain store's
            // box was freed inside the timing of the store with notes.
            var box: Box?
            plainOpens.append(try Timing.secondsThrowing { box = try openAndAsk(store) })
            box?.close()
            box = nil
            noteOpens.append(try Timing.secondsThrowing { box = try openAndAsk(copy) })
            box?.close()
            box = nil
        }
        let plain = Timing.percentile(plainOpens, 0.5), noted = Timing.percentile(noteOpens, 0.5)
        print("box: open and first request, \(label), \(plainOpens.count) rounds  "
              + "p50 \(Timing.ms(noted)); peer: the same store without them  p50 \(Timing.ms(plain)); \(Timing.ratio(noted, plain)) at p50")
    }

    /// A daemon killed after a change: the box opened on `store`, asked, the card `id` moved
    /// between levels 1 and 2 (a line in the log), and the process killed, closing nothing.
    static func kill(_ store: String, moving id: String) throws -> Never {
        let box = try openAndAsk(store)
        _ = try box.move(id: id, level: try box.show(id: id).level == .one ? "2" : "1")
        Glibc.kill(getpid(), SIGKILL)
        fatalError("not killed")
    }

    /// A box opened on `store` and its first request answered: what a daemon does at start.
    static func openAndAsk(_ store: String) throws -> Box {
        let box = try Box(options: BoxOptions(storePath: store, device: BenchDevice.name))
        _ = try box.status()
        return box
    }

    /// `Show` of each of `ids` and each of `peers`, in turns, ten rounds; p50 and p99 of each.
    static func compare(_ label: String, _ ids: [String], _ peerLabel: String, _ peers: [String], box: Box) throws {
        var times: [Double] = []
        var peerTimes: [Double] = []
        for _ in 0..<10 {
            for (id, peer) in zip(ids, peers) {
                times.append(try Timing.secondsThrowing { _ = try box.show(id: id) })
                peerTimes.append(try Timing.secondsThrowing { _ = try box.show(id: peer) })
            }
        }
        let p50 = Timing.percentile(times, 0.5), peer50 = Timing.percentile(peerTimes, 0.5)
        print("box: \(label), \(times.count) calls  p50 \(Timing.ms(p50))  p99 \(Timing.ms(Timing.percentile(times, 0.99))); "
              + "peer: \(peerLabel)  p50 \(Timing.ms(peer50))  p99 \(Timing.ms(Timing.percentile(peerTimes, 0.99))); \(Timing.ratio(p50, peer50)) at p50")
    }

    /// Turns every card `card-N-benchmark` with N % 10 == 5 into a cloze card of one of
    /// `notes` notes (the i-th of them number i / notes + 1 of note i % notes, so each note's
    /// text holds exactly its cards' numbers and no card is added or damaged), and the first
    /// `mediaCards` with N % 10 == 7 into cards whose Markdown front shows a picture beside it.
    static func convert(_ store: String) throws -> (cloze: Int, notes: Int, clozeIDs: [String], plainIDs: [String], mediaIDs: [String]) {
        var chosen: [(number: Int, level: String, id: String)] = []
        var pictured: [(number: Int, level: String, id: String)] = []
        var plain: [String] = []
        for level in ["1", "2", "3", "4", "5", "6", "7", "finished"] {
            let directory = try FileDescriptor.openDirectory(store + "/" + level)
            defer { directory.close() }
            try FileSystem.forEachEntry(directory) { name, _ in
                let parts = name.split(separator: "-")
                guard parts.count == 3, let number = Int(parts[1]) else { return }
                switch number % 10 {
                case 5: chosen.append((number, level, name))
                case 7: pictured.append((number, level, name))
                case 1: plain.append(name)
                default: break
                }
            }
        }
        chosen.sort { $0.number < $1.number }
        pictured.sort { $0.number < $1.number }
        let noteCount = min(notes, chosen.count)
        mkdir(store + "/notes", 0o755)
        for note in 0..<noteCount {
            let numbers = stride(from: note, to: chosen.count, by: noteCount).map { $0 / noteCount + 1 }
            let text = "Satz \(note): " + numbers.map { "{{c\($0)::Wort \($0) von \(note)}}" }.joined(separator: " und ") + "."
            mkdir(store + "/notes/note-\(note)-bench", 0o755)
            try write(text, to: store + "/notes/note-\(note)-bench/text.md")
        }
        for (index, card) in chosen.enumerated() {
            let path = store + "/" + card.level + "/" + card.id
            unlink(path + "/front.txt")
            unlink(path + "/back.txt")
            try write("note-\(index % noteCount)-bench\nc\(index / noteCount + 1)\n", to: path + "/cloze-of")
        }
        // A small PNG's signature and header, as the picture: `Show` looks at the file, never decodes it.
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + [UInt8](repeating: 0, count: 1016)
        for card in pictured.prefix(mediaCards) {
            let path = store + "/" + card.level + "/" + card.id
            unlink(path + "/front.txt")
            try write("front \(card.number) ![ein Bild](bild.png)", to: path + "/front.md")
            let file = try FileDescriptor.open(path + "/bild.png", flags: O_WRONLY | O_CREAT | O_TRUNC)
            try file.writeAll(png)
            file.close()
        }
        sync()
        let sample = min(mediaCards, chosen.count, plain.count)
        return (chosen.count, noteCount, chosen.prefix(sample).map(\.id), Array(plain.prefix(sample)),
                pictured.prefix(sample).map(\.id))
    }

    private static func write(_ text: String, to path: String) throws {
        let file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
        defer { file.close() }
        try file.writeAll(Array(text.utf8))
    }
}
