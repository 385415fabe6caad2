import LeitnerSystem

/// Loose pairs (R14): `NAME-front.EXT` and `NAME-back.EXT` put by hand into a level directory are
/// adopted as card `NAME`. Anything that cannot be adopted stays where it is and is reported.
extension StoreProblem: Error {}

extension Store {
    /// The two halves of `cardName` loose in `level`, or why they cannot be adopted.
    func loosePair(_ cardName: String, in level: Level) -> Result<(front: SideFileName, back: SideFileName), StoreProblem> {
        var halves: [SideName: [SideFileName]] = [:]
        for file in looseFiles(in: level) {
            if let half = SideFileName(fileName: file), half.cardName == cardName { halves[half.side, default: []].append(half) }
        }
        let someHalf = halves[.front]?.first ?? halves[.back]?.first
        let somePath = someHalf.map { path(of: $0.fileName, in: level) } ?? self.path(of: level)
        func problem(_ reason: String, _ advice: String) -> Result<(front: SideFileName, back: SideFileName), StoreProblem> {
            .failure(StoreProblem(kind: .loosePair, path: somePath, reason: reason, advice: advice))
        }
        if let reason = CardID.problem(cardName) {
            return problem("'\(cardName)' is not a valid card id: \(reason)", "rename the files")
        }
        if let existing = self.level(of: cardName) {
            return problem("card '\(cardName)' already exists in level \(existing)", "rename the files to another name")
        }
        let fronts = halves[.front] ?? [], backs = halves[.back] ?? []
        if fronts.count > 1 || backs.count > 1 {
            return problem("more than one \(fronts.count > 1 ? "front" : "back") for '\(cardName)'", "remove the extra file")
        }
        guard let front = fronts.first else { return problem("a back without its front", "add '\(cardName)-front.EXT'") }
        guard let back = backs.first else { return problem("a front without its back", "add '\(cardName)-back.EXT'") }
        return .success((front, back))
    }

    /// Adopts the pair `fileName` belongs to when both halves are there; returns the new card's id.
    func adoptLoosePair(containing fileName: String, in level: Level, now: Int64) throws(BoxError) -> String? {
        // Both halves of a pair arrive in one batch of events: the second may be adopted already
        // (or the file gone again), and `loosePair` needs a half still there.
        guard looseFiles(in: level).contains(fileName), let half = SideFileName(fileName: fileName),
              case .success(let pair) = loosePair(half.cardName, in: level) else { return nil }
        let id = half.cardName
        let staged = "adopt-\(level.name)-\(id)"
        let stagedPath = statePath + "/tmp/" + staged
        let directory = try fd(level)
        do {
            try FileSystem.makeDirectory(staged, in: stagingFD)
            let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
            defer { dir.close() }
            try FileSystem.rename(pair.front.fileName, in: directory, to: "front." + pair.front.fileExtension, in: dir)
            try FileSystem.rename(pair.back.fileName, in: directory, to: "back." + pair.back.fileExtension, in: dir)
            try dir.sync()
        } catch {
            try? restoreAdoption(staged, level: level, cardName: id)
            throw .failing(.rename, stagedPath, error, doing: "cannot adopt loose pair '\(id)'")
        }
        forgetLooseFile(pair.front.fileName, in: level)
        forgetLooseFile(pair.back.fileName, in: level)
        do {
            try journaled([LogEntry(time: now, event: .add, id: id, to: level, origin: .adopt)],
                          intent: [.add(staged: staged, id: id, to: level)], carryOut: { () throws(BoxError) in
                do throws(Errno) {
                    try FileSystem.rename(staged, in: stagingFD, to: id, in: directory)
                } catch {
                    throw .failing(.rename, path(of: id, in: level), error, doing: "cannot adopt")
                }
            }, undo: { () throws(Errno) in try FileSystem.rename(id, in: directory, to: staged, in: stagingFD) })
        } catch {
            // Not adopted after all: the halves go back where the person put them.
            try? restoreAdoption(staged, level: level, cardName: id)
            throw error
        }
        setLevel(id, level)
        return id
    }

    /// Puts the files of an interrupted adoption back where they were, as loose halves.
    func restoreAdoption(_ staged: String, level: Level, cardName: String) throws(Errno) {
        guard let directory = openFD(level) else { throw Errno.notDirectory }
        let dir = try FileDescriptor.openDirectory(staged, relativeTo: stagingFD)
        defer { dir.close() }
        for entry in try FileSystem.list(dir) {
            guard let ext = MediaType.fileExtension(entry.name) else { continue }
            let side = entry.name.dropLast(ext.count + 1)
            let loose = "\(cardName)-\(side).\(ext)"
            try FileSystem.rename(entry.name, in: dir, to: loose, in: directory)
            noteLooseFile(loose, in: level)
        }
        try directory.sync()
        try FileSystem.removeDirectory(staged, in: stagingFD)
    }

    /// Problems with the loose files of every level: lone halves, pairs that cannot be adopted,
    /// files that are not card halves.
    func looseFileProblems() -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var reported = Set<String>()
        for level in Level.allCases {
            for file in looseFiles(in: level).sorted() {
                guard let half = SideFileName(fileName: file) else {
                    problems.append(StoreProblem(kind: .strayEntry, path: path(of: file, in: level),
                                                 reason: "a file that is not half of a card (NAME-front.EXT or NAME-back.EXT)",
                                                 advice: "move it out of the store, or rename it"))
                    continue
                }
                guard reported.insert("\(level.name)/\(half.cardName)").inserted else { continue }
                if case .failure(let problem) = loosePair(half.cardName, in: level) { problems.append(problem) }
            }
        }
        return problems
    }
}
