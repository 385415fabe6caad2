/// The reply of `Speech` (R33): the file when it is made, or that it is being made, or why
/// there is none.
public struct SpeechReply: Sendable, Equatable {
    /// The WAV file, when made.
    public var path: String?
    /// Its bytes, when asked for.
    public var data: [UInt8]?
    /// Being made: ask again later.
    public var pending = false
    /// Why there is none.
    public var problem: String?

    public init(path: String? = nil, data: [UInt8]? = nil, pending: Bool = false, problem: String? = nil) {
        self.path = path
        self.data = data
        self.pending = pending
        self.problem = problem
    }
}
