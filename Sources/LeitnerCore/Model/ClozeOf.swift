/// What a cloze card's `cloze-of` names (R30): the note in `notes/` and the deletion number.
public struct ClozeOf: Sendable, Equatable, Hashable {
    public var note: String
    public var number: Int

    public init(note: String, number: Int) {
        self.note = note
        self.number = number
    }

    /// "cloze 2 of NOTE", as `list` and `show` say it.
    public var description: String { "cloze \(number) of \(note)" }
}
