/// The errors of the box. Each names the card, the level or the path it is about, and the
/// reason. Their names and parameters on the wire are LeitnerProtocol's (`BoxError+Varlink`).
public enum BoxError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchCard(id: String)
    case invalidCardId(id: String, reason: String)
    case invalidLevel(level: String)
    case cardExists(id: String)
    case notInTest(id: String)
    /// `Unsuspend` of a card that is not in `suspended/` (R24): `level` is where it is.
    case notSuspended(id: String, level: String)
    case testComplete
    case nothingToUndo
    case invalidAsset(name: String, reason: String)
    /// An operation on the store failed: `path` is the file, `reason` the operation and cause in
    /// words. A failed system call also gives its `errno` and the `operation` (a
    /// `StoreOperation`'s word), so that a client decides from the number, never from the words;
    /// `BoxError.failing` builds it. A failure of another kind (a damaged card) has neither.
    case storeFailure(path: String, reason: String, errno: Int32? = nil, operation: String? = nil)
    /// A front with the same text is already in the box (Add without `allowDuplicate`).
    case duplicateFront(id: String)
    /// A search pattern that cannot be used: empty, or a regular expression `LinearRegex` refuses.
    case invalidPattern(pattern: String, reason: String)
    /// A search whose regular expression spent its work budget (`SearchScan`) before it was
    /// done: cut, so that one pattern cannot hold a core for minutes.
    case searchCut(pattern: String, reason: String)
    /// A sync conflict of the card cannot be resolved as asked: there is none, or `keep` does
    /// not name one of its sides (docs/sync.md).
    case cannotResolve(id: String, reason: String)
    /// A reply that grows with the box would pass the daemon's message size limit: without
    /// Varlink's `more`, the whole reply would; with it, one item alone would (docs/protocol.md).
    case replyTooLarge(reason: String)
    /// A parameter has the right type but a value the method cannot use (a malformed date);
    /// maps to `org.varlink.service.InvalidParameter`.
    case invalidParameter(name: String, reason: String)
    /// A tag that breaks R25's rules (those of a card id, with `:` between parts).
    case invalidTag(tag: String, reason: String)
    /// A reverse card was asked of a reverse card (R28): it would show `reverseOf` as it is.
    case reverseOfReverse(id: String, reverseOf: String)
    /// What a browser device keeps or sends (R35) is refused: the device is no browser of this
    /// box (another machine's, or one that never kept a test), or a kept grade's time is one it
    /// cannot have been given at. `reason` says which.
    case keptGradeRefused(device: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchCard(let id): "no card '\(id)'"
        case .invalidCardId(let id, let reason): "invalid card id '\(id)': \(reason)"
        case .invalidLevel(let level): "invalid level '\(level)': expected 1 to 7, finished, new or suspended"
        case .cardExists(let id): "card '\(id)' already exists"
        case .notInTest(let id): "card '\(id)' is not in today's test"
        case .notSuspended(let id, let level): "card '\(id)' is not suspended: it is in \(level == "new" ? "new" : level == "finished" ? "finished" : "level " + level)"
        case .testComplete: "today's test is complete"
        case .nothingToUndo: "nothing to undo today"
        case .invalidAsset(let name, let reason): "invalid asset '\(name)': \(reason)"
        case .storeFailure(let path, let reason, _, _): "'\(path)': \(reason)"
        case .duplicateFront(let id): "a card with the same front exists: '\(id)'"
        case .invalidPattern(let pattern, let reason): "invalid search pattern '\(pattern)': \(reason)"
        case .searchCut(let pattern, let reason): "search for '\(pattern)' cut: \(reason)"
        case .cannotResolve(let id, let reason): "cannot resolve the conflict of card '\(id)': \(reason)"
        case .replyTooLarge(let reason): "reply too large: \(reason)"
        case .invalidParameter(let name, let reason): "invalid parameter '\(name)': \(reason)"
        case .invalidTag(let tag, let reason): "invalid tag '\(tag)': \(reason)"
        case .reverseOfReverse(let id, let original):
            "'\(id)' is a reverse card (of '\(original)'): a reverse of it would show '\(original)' as it is; reverse '\(original)' instead"
        case .keptGradeRefused(let device, let reason): "refused from device '\(device)': \(reason)"
        }
    }
}
