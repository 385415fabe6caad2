/// The name of one side of a card kept as a file beside others, `NAME-front.EXT` or
/// `NAME-back.EXT`: a loose pair in a level directory (R14), a pair in an import directory,
/// a pair written by `export --dir`. The one place this naming rule is written.
public struct SideFileName: Equatable, Sendable {
    /// The card's name, NAME (not checked to be a valid id).
    public var cardName: String
    public var side: SideName
    /// EXT, without the dot.
    public var fileExtension: String

    public init(cardName: String, side: SideName, fileExtension: String) {
        self.cardName = cardName
        self.side = side
        self.fileExtension = fileExtension
    }

    /// Takes `NAME-front.EXT` or `NAME-back.EXT` apart; nil for any other name. The side's
    /// marker must come right before the extension, so `a-front.b-back.png` is a back, and NAME
    /// and EXT must not be empty.
    public init?(fileName: String) {
        guard let ext = MediaType.fileExtension(fileName) else { return nil }
        let stem = fileName.dropLast(ext.count + 1)
        for side in SideName.allCases where stem.hasSuffix("-" + side.rawValue) {
            let name = stem.dropLast(side.rawValue.count + 1)
            guard !name.isEmpty else { return nil }
            self.init(cardName: String(name), side: side, fileExtension: ext)
            return
        }
        return nil
    }

    public var fileName: String { "\(cardName)-\(side.rawValue).\(fileExtension)" }
}
