/// One record of a delimited text file: the line it starts on and its fields, or what is
/// wrong with it.
public struct DelimitedRow: Sendable, Equatable {
    /// The 1-based line the record starts on.
    public var line: Int
    public var fields: [String]
    /// Why the record cannot be read (a quoting error); `fields` is then incomplete.
    public var problem: String?

    public init(line: Int, fields: [String], problem: String? = nil) {
        self.line = line
        self.fields = fields
        self.problem = problem
    }
}
