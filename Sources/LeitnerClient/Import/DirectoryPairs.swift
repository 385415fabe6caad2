import LeitnerCore
/// Pairs the files of an import directory: `NAME-front.EXT` with `NAME-back.EXT` makes card
/// `NAME`, by the same naming rule (`SideFileName`) as R14 adopts loose pairs in a level directory.
public enum DirectoryPairs {
    /// The cards the file names make, sorted by name, and the files that make none. Other
    /// files (no `-front.`/`-back.` in their name, hidden files) are ignored.
    public static func pair(fileNames: [String], directory: String) -> (records: [ImportRecord], problems: [ImportProblem]) {
        var fronts: [String: [String]] = [:]
        var backs: [String: [String]] = [:]
        for name in fileNames where !name.hasPrefix(".") {
            guard let half = SideFileName(fileName: name) else { continue }
            switch half.side {
            case .front: fronts[half.cardName, default: []].append(name)
            case .back: backs[half.cardName, default: []].append(name)
            }
        }
        var records: [ImportRecord] = []
        var problems: [ImportProblem] = []
        for name in Set(fronts.keys).union(backs.keys).sorted() {
            let front = fronts[name] ?? [], back = backs[name] ?? []
            let location = ImportLocation.file("\(directory)/\((front + back).sorted().first!)")
            if front.count != 1 || back.count != 1 {
                let reason = front.isEmpty ? "no front for '\(name)' (a lone back)"
                    : back.isEmpty ? "no back for '\(name)' (a lone front)"
                    : "more than one front or back for '\(name)'"
                problems.append(ImportProblem(location: location, reason: reason))
                continue
            }
            if let reason = CardID.problem(name) {
                problems.append(ImportProblem(location: location, reason: "invalid card id '\(name)': \(reason)"))
                continue
            }
            records.append(ImportRecord(location: location, id: name,
                                        front: .file(path: directory + "/" + front[0]),
                                        back: .file(path: directory + "/" + back[0])))
        }
        return (records, problems)
    }
}
