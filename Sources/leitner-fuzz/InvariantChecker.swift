import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// What must hold after every step, whatever was sent: the daemon is alive and answers `Status`
/// on every connection; every card is in exactly one level, on disk as in `List` and `Status`;
/// each line of the review log is an entry `Log` gives; `Doctor` reports nothing, since the
/// fuzzer changes nothing by hand (docs/rules.md R13, R16, R21) — but the reverse cards a
/// `Delete` with `keepReverses` left dangling (R28), which are damaged by design: out of `List`
/// and the counts, and reported.
struct InvariantChecker {
    let daemon: DaemonUnderTest
    let judge: ReplyJudge

    /// The cheap part, after each edge call: the daemon lives, and a connection opened before the
    /// call is still served.
    func quick(bystander: FuzzConnection) throws(FuzzFailure) {
        try alive()
        _ = try judge.expectSuccess(bystander, BoxInterface.name + ".Status", [:])
    }

    /// Everything; returns what the box holds now, for the next calls.
    /// - Parameter looseHalves: the lone halves the fuzzer put into the store by hand, the only
    ///   problems `Doctor` may report.
    func full(bystander: FuzzConnection, looseHalves: Set<String>) throws(FuzzFailure) -> BoxKnowledge {
        try quick(bystander: bystander)
        var knowledge = BoxKnowledge()
        knowledge.looseHalves = looseHalves
        let connection = try judge.connect()
        let statusReply = try judge.expectSuccess(connection, BoxInterface.name + ".Status", [:])[0].parameters
        let status: BoxStatus
        do { status = try BoxStatus(json: .object(statusReply)) } catch {
            throw FuzzFailure("invariant: Status does not decode: \(error)")
        }
        knowledge.today = status.today

        // Every card once in List, and in the level it is in on disk.
        var listed: [String: Level] = [:]
        for reply in try judge.expectSuccess(connection, BoxInterface.name + ".List", [:], more: true) {
            for value in reply.parameters["cards"]?.arrayValue ?? [] {
                let card: Card
                do { card = try Card(json: value) } catch {
                    throw FuzzFailure("invariant: List gives a card that does not decode: \(error)")
                }
                if listed[card.id] != nil { throw FuzzFailure("invariant: List gives card '\(card.id)' twice") }
                listed[card.id] = card.level
            }
        }
        var onDisk = try cardsOnDisk()
        // Dangling reverse cards (R28): their `reverse-of` names a card on no level's disk.
        var dangling: Set<String> = []
        for (id, levels) in onDisk where levels.count == 1 {
            let file = daemon.storePath + "/" + levels[0].name + "/" + id + "/reverse-of"
            guard let bytes = try? FileSystem.readFile(atPath: file, limit: 1024) else { continue }
            let named = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if onDisk[named] == nil { dangling.insert(daemon.storePath + "/" + levels[0].name + "/" + id) }
        }
        for path in dangling { onDisk[String(path.split(separator: "/").last ?? "")] = nil }
        for (id, levels) in onDisk where levels.count != 1 {
            throw FuzzFailure("invariant: card '\(id)' is in \(levels.count) levels on disk: \(levels.map(\.name))")
        }
        for (id, levels) in onDisk where listed[id] != levels[0] {
            let listedLevel = listed[id].map(\.name) ?? "nothing"
            throw FuzzFailure("invariant: card '\(id)' is in level \(levels[0]) on disk but List gives \(listedLevel)")
        }
        for id in listed.keys where onDisk[id] == nil {
            throw FuzzFailure("invariant: List gives card '\(id)', which is in no level on disk")
        }
        // A damaged card is found when its directory is read (R21, docs/store-format.md), never at
        // open: after a restart a dangling reverse counts until `List` has read it. So the counts
        // are the ones after the listing.
        let counted: BoxStatus
        do {
            counted = try BoxStatus(json: .object(try judge.expectSuccess(connection, BoxInterface.name + ".Status", [:])[0].parameters))
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("invariant: Status does not decode: \(error)")
        }
        for level in Level.allCases {
            let count = onDisk.values.filter { $0[0] == level }.count
            if counted.counts[level] != count {
                throw FuzzFailure(
                    "invariant: Status counts \(counted.counts[level] ?? -1) cards in level \(level) but \(count) are on disk")
            }
        }
        knowledge.ids = listed.keys.sorted()
        knowledge.levels = listed

        // The review log: each line an entry that decodes.
        var entries = 0
        for reply in try judge.expectSuccess(connection, BoxInterface.name + ".Log", [:], more: true) {
            for value in reply.parameters["entries"]?.arrayValue ?? [] {
                do { _ = try LogEntry(json: value) } catch {
                    throw FuzzFailure("invariant: Log gives an entry that does not decode: \(error)")
                }
                entries += 1
            }
        }
        let devices = try deviceNames()
        knowledge.devices = devices
        let lines = try logLines(devices)
        if lines != entries {
            throw FuzzFailure("invariant: the review log has \(lines) lines but Log gives \(entries) entries")
        }

        // Doctor reports the lone halves put there by hand, as loose pairs, the dangling reverse
        // cards as damaged, and nothing else. A browser device's log (a grade kept, TakeKeptGrade)
        // makes no store a synced one (docs/sync.md, "A browser is no sync peer"): nothing is
        // reported as a sync tool's delivery under way.
        var reported: Set<String> = []
        for reply in try judge.expectSuccess(connection, BoxInterface.name + ".Doctor", [:], more: true) {
            for value in reply.parameters["problems"]?.arrayValue ?? [] {
                if value["kind"]?.stringValue == "damagedCard", let path = value["path"]?.stringValue, dangling.contains(path) {
                    reported.insert(path)
                    continue
                }
                guard value["kind"]?.stringValue == "loosePair", let path = value["path"]?.stringValue,
                      looseHalves.contains(path) else {
                    throw FuzzFailure("invariant: Doctor reports a problem the fuzzer did not make: \(value.jsonText)")
                }
                reported.insert(path)
            }
        }
        if let missed = looseHalves.union(dangling).subtracting(reported).min() {
            throw FuzzFailure("invariant: Doctor does not report '\(missed)', a lone half put there by hand or a dangling reverse card")
        }
        if counted.problems != looseHalves.count + dangling.count {
            throw FuzzFailure("invariant: Status counts \(counted.problems) problems, not the \(looseHalves.count) lone halves "
                              + "and \(dangling.count) dangling reverse cards")
        }
        return knowledge
    }

    /// The daemon has not ended.
    func alive() throws(FuzzFailure) {
        if let ended = daemon.exited() { throw FuzzFailure("leitnerd \(ended)") }
    }

    /// Card id → the levels whose directory holds it.
    private func cardsOnDisk() throws(FuzzFailure) -> [String: [Level]] {
        var found: [String: [Level]] = [:]
        for level in Level.allCases {
            let path = daemon.storePath + "/" + level.name
            do {
                let directory = try FileDescriptor.openDirectory(path)
                defer { directory.close() }
                for entry in try FileSystem.list(directory) where entry.kind == .directory && !entry.name.hasPrefix(".") {
                    found[entry.name, default: []].append(level)
                }
            } catch {
                throw FuzzFailure("invariant: cannot list '\(path)': \(error)")
            }
        }
        return found
    }

    /// The devices with a directory in `.leitner/devices/`: this one, and the browsers that kept
    /// a test.
    private func deviceNames() throws(FuzzFailure) -> [String] {
        let devices = daemon.storePath + "/.leitner/devices"
        var names: [String] = []
        do {
            let directory = try FileDescriptor.openDirectory(devices)
            defer { directory.close() }
            try FileSystem.forEachEntry(directory) { name, _ in names.append(name) }
        } catch {
            throw FuzzFailure("invariant: cannot list '\(devices)': \(error)")
        }
        return names.sorted()
    }

    /// The lines of every device's review log: `Log` merges them all (docs/sync.md), and a kept
    /// grade (`TakeKeptGrade`, R35) writes the log of the browser device it names.
    private func logLines(_ names: [String]) throws(FuzzFailure) -> Int {
        let devices = daemon.storePath + "/.leitner/devices"
        var lines = 0
        for name in names {
            let path = devices + "/" + name + "/log"
            guard FileSystem.exists(path, in: nil) else { continue }
            do {
                lines += try FileSystem.readFile(atPath: path).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            } catch {
                throw FuzzFailure("invariant: cannot read '\(path)': \(error)")
            }
        }
        return lines
    }
}
