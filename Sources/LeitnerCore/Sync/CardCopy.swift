/// One of the directories of a card found in more than one level. Syncthing makes a moved card's
/// new directory first and deletes the old one up to a minute later; until then the box serves
/// one copy by the rule of docs/rules.md (R13, "A card in two levels").
struct CardCopy: Equatable, Sendable {
    var level: Level
    /// Exactly one front and one back, each readable (R21).
    var isComplete: Bool
    /// The directory's modification time, in nanoseconds since the epoch.
    var modified: Int64

    /// The copy to serve: the complete one; of several complete ones, the newest by directory
    /// modification time; when none is complete, the one served so far, so that a card being
    /// written never jumps. Ties keep the one served so far, else the lowest level.
    /// - Parameters:
    ///   - copies: the card's directories now on disk.
    ///   - current: the level served until now, if any.
    static func served(among copies: [CardCopy], current: Level?) -> Level? {
        let complete = copies.filter(\.isComplete)
        if complete.isEmpty, let current, copies.contains(where: { $0.level == current }) { return current }
        let candidates = complete.isEmpty ? copies : complete
        guard let newest = candidates.map(\.modified).max() else { return nil }
        let tied = candidates.filter { $0.modified == newest }.map(\.level)
        if let current, tied.contains(current) { return current }
        return tied.min()
    }
}
