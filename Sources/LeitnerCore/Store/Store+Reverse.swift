import LeitnerSystem

/// Reverse cards (R28): a card directory holding a file `reverse-of`, one line naming another
/// card's id, and no sides. It is served with that card's sides swapped, so an edit of either
/// covers both directions; it has its own id, level and log lines.
///
/// The scan at open reads names only, so a reverse card is told from any other card when its
/// directory is read (`readSides`), never by its name: `ID.rev` is only the default. Finding a
/// card's reverses (a rename or a delete of it) is the box's `LinkIndex`.
extension Store {
    /// The file that makes a card directory a reverse card.
    static let reverseFileName = CardLayout.reverseFile

    /// The default id of a card's reverse.
    static func defaultReverseID(of id: String) -> String? {
        let candidate = id + ".rev"
        return CardID.isValid(candidate) ? candidate : nil
    }
}

extension CardSource {
    /// The sides of a reverse card: those of the card its `reverse-of` names, swapped. Damaged
    /// (R21) when it has sides as well, when the file does not name a valid id, when that card
    /// is gone (dangling) or is itself a reverse card, or when that card is damaged.
    func readReverse(_ id: String, in level: Level, directory: FileDescriptor, entry: EntryKind, withText: Bool,
                     hasSides: Bool, asOriginal: Bool, read: Store.SidesRead) -> Store.SidesRead {
        var read = read
        let filePath = path(of: id, in: level) + "/" + Store.reverseFileName
        let named: String
        switch readReverseFile(in: directory, kind: entry, cardRelative: level.name + "/" + id) {
        case .failure(let damage):
            read.sides = .failure(CardDamage(
                "'\(filePath)': \(damage.reason)",
                advice: "write the id of the card it reverses into '\(filePath)', one line, or delete the card"))
            return read
        case .success(let text):
            named = text
        }
        if let problem = CardID.problem(named) {
            read.sides = .failure(CardDamage(
                "'\(filePath)' names '\(named)', which is not a valid card id: \(problem)",
                advice: "write the id of the card it reverses into '\(filePath)', one line, or delete the card"))
            return read
        }
        read.reverseOf = named
        if asOriginal {
            read.sides = .failure("'\(id)' is itself a reverse card (it reverses '\(named)'), with no sides of its own")
            return read
        }
        if hasSides {
            read.sides = .failure(CardDamage(
                "a reverse card of '\(named)' with sides of its own as well",
                advice: "remove '\(filePath)' to keep it as a card of its own, or remove its front and back files to keep it a reverse"))
            return read
        }
        guard named != id, let originalLevel = self.level(of: named) else {
            read.sides = .failure(CardDamage(
                named == id ? "a reverse card of itself" : "a dangling reverse card: '\(named)', the card it reverses, is not in the store",
                advice: "delete it (leitnerctl delete \(id)), or write the id of an existing card into '\(filePath)'"))
            return read
        }
        let original = readSides(named, in: originalLevel, withText: withText, asOriginal: true)
        read.followsLink = original.followsLink
        switch original.sides {
        case .success(let (front, back)):
            read.sides = .success((back, front))
            if let marked = original.markedSides { read.markedSides = marked }
        case .failure(let damage):
            let isReverse = original.reverseOf != nil
            read.sides = .failure(CardDamage(
                isReverse ? "a reverse of a reverse: '\(named)', which it names, is a reverse card itself"
                          : "'\(named)', the card it reverses, is damaged: \(damage.reason)",
                advice: isReverse ? "write the id of the original card (\(original.reverseOf ?? "?")) into '\(filePath)', or delete it"
                                  : "mend '\(named)'; this reverse shows its sides again then"))
        }
        return read
    }

    /// The id a `reverse-of` file names: its first line, without surrounding white space.
    func readReverseFile(in directory: FileDescriptor, kind: EntryKind, cardRelative: String) -> Result<String, CardDamage> {
        readLinkFile(Store.reverseFileName, what: "a card id", in: directory, kind: kind, cardRelative: cardRelative)
            .map(CardLayout.reverseOf(fileText:))
    }
}

extension Store {
    /// Writes a new reverse card under `.leitner/tmp/add-ID`: its directory holding `reverse-of`,
    /// and a `tags` file when `tags` are given (R25: a reverse card's tags are its own). `synced`
    /// for a card committed on its own; a batch syncs the file system at once.
    func stageReverse(_ id: String, of original: String, level: Level, tags: [String] = [], typeAnswer: Bool = false,
                      synced: Bool, in batch: String? = nil) throws(BoxError) -> StagedCard {
        try stageLinkCard(id, file: (Store.reverseFileName, CardLayout.reverseFileText(original)), level: level, tags: tags, typeAnswer: typeAnswer,
                          synced: synced, in: batch)
    }
}
