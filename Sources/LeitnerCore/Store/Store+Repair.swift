/// Repair at open (R18): finishes what the journal says was begun, puts back what was not, and
/// empties the trash. Runs before the daemon serves anything.
extension Store {
    func repair(now: Int64) throws(BoxError) {
        let start = readCheckpoint()
        var last: [String: LogEntry] = [:]
        for (entry, _) in try log.entries(from: start) {
            if let id = entry.id { last[id] = entry }
        }
        for (id, entry) in last.sorted(by: { $0.key < $1.key }) {
            try redo(entry, id: id)
        }
        try clearStaging()
        do {
            for entry in try FileSystem.list(trashFD) { try FileSystem.removeTree(entry.name, in: trashFD) }
        } catch {
            throw .storeFailure(path: root + "/.leitner/trash", reason: "cannot empty: \(error)")
        }
        try checkpoint()
    }

    /// Carries out a journaled change whose rename a crash may have cut off. A change made by
    /// hand is never redone: the hand had the last word.
    private func redo(_ entry: LogEntry, id: String) throws(BoxError) {
        guard entry.origin == nil || entry.origin == "adopt" else { return }
        switch entry.event {
        case .grade, .move, .undo:
            guard let from = entry.from, let to = entry.to, from != to, levelOf[id] == from else { return }
            do { try FileSystem.rename(id, in: fd(from), to: id, in: fd(to)) } catch {
                throw .storeFailure(path: path(of: id, in: from), reason: "cannot finish an interrupted move to level \(to): \(error)")
            }
            setLevel(id, to)
        case .add:
            guard let to = entry.to, levelOf[id] == nil else { return }
            let staged = entry.origin == "adopt" ? "adopt-\(to.name)-\(id)" : "add-" + id
            guard FileSystem.exists(staged, in: stagingFD) else { return }
            do { try FileSystem.rename(staged, in: stagingFD, to: id, in: fd(to)) } catch {
                throw .storeFailure(path: path(of: id, in: to), reason: "cannot finish an interrupted add: \(error)")
            }
            setLevel(id, to)
        case .delete:
            guard let from = entry.from, levelOf[id] == from else { return }
            do { try FileSystem.rename(id, in: fd(from), to: "\(id).redo", in: trashFD) } catch {
                throw .storeFailure(path: path(of: id, in: from), reason: "cannot finish an interrupted delete: \(error)")
            }
            setLevel(id, nil)
        case .skip, .complete:
            return
        }
    }

    /// Staged cards whose add was never journaled are dropped (the state before the add);
    /// interrupted adoptions are put back as loose halves.
    private func clearStaging() throws(BoxError) {
        do {
            for entry in try FileSystem.list(stagingFD) {
                let name = entry.name
                if name.hasPrefix("adopt-") {
                    let rest = name.dropFirst("adopt-".count)
                    if let dash = rest.firstIndex(of: "-"), let level = Level(name: rest[..<dash]) {
                        try restoreAdoption(name, level: level, cardName: String(rest[rest.index(after: dash)...]))
                        continue
                    }
                }
                try FileSystem.removeTree(name, in: stagingFD)
            }
        } catch {
            throw .storeFailure(path: root + "/.leitner/tmp", reason: "cannot clear: \(error)")
        }
    }

    private func readCheckpoint() -> Int {
        guard let bytes = try? FileSystem.readFile("checkpoint", in: stateFD, limit: 4096),
              let offset = Int(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? ""),
              offset >= 0, offset <= log.size else { return 0 }
        return offset
    }
}
