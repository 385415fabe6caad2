/// One key press as the review reads it: a character, or one of the keys that send an escape
/// sequence (arrows, pages, Home, End).
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    /// Enter (CR or LF).
    case enter
    /// Escape pressed alone, or a sequence this reader does not know.
    case escape
    case controlC, controlD
    /// The terminal's input ended (the terminal went away).
    case endOfInput
}
