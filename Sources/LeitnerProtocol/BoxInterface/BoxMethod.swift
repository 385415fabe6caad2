/// The methods of `io.leitner.Box`, each named once: the typed client calls them by this name,
/// and `BoxClientTests` checks the list against the interface text.
public enum BoxMethod: String, Sendable, CaseIterable {
    case status = "Status"
    case prepare = "Prepare"
    case next = "Next"
    case grade = "Grade"
    case undo = "Undo"
    case add = "Add"
    case addMany = "AddMany"
    case move = "Move"
    case suspend = "Suspend"
    case unsuspend = "Unsuspend"
    case delete = "Delete"
    case edit = "Edit"
    case rename = "Rename"
    case show = "Show"
    case list = "List"
    case readAsset = "ReadAsset"
    case readMedium = "ReadMedium"
    case calendar = "Calendar"
    case log = "Log"
    case search = "Search"
    case doctor = "Doctor"
    case stop = "Stop"
    case stats = "Stats"
    case resolveConflict = "ResolveConflict"
    case tag = "Tag"
    case untag = "Untag"
    case tags = "Tags"
    case practiceCards = "PracticeCards"
    case practice = "Practice"
    case addReverse = "AddReverse"
    case addCloze = "AddCloze"

    /// The qualified name a call carries, `io.leitner.Box.Grade`.
    public var qualifiedName: String { BoxInterface.name + "." + rawValue }
}
