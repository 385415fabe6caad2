/// Which side of a card.
public enum SideName: String, Sendable, CaseIterable {
    case front, back
}
