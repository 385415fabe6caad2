/// Where an imported card was read: a line of a card file, or a file of a directory. Kept as
/// what it is, so that the command can say it as `FILE:LINE` or as the file's path without
/// parsing its own words back.
public enum ImportLocation: Sendable, Equatable, CustomStringConvertible {
    /// A line of the file being imported, from 1.
    case line(Int)
    /// A file of a directory being imported (a pair's front, a card directory).
    case file(String)

    /// `line 12`, or the file's path in quotes: for a message that has no file name to lead with.
    public var description: String {
        switch self {
        case .line(let number): "line \(number)"
        case .file(let path): "'\(path)'"
        }
    }

    /// The location as a message leads with it (`FILE:LINE: reason`): `PATH:12` for a line of the
    /// file at `path`, the file's own path for a directory's file.
    public func place(in path: String) -> String {
        switch self {
        case .line(let number): "\(path):\(number)"
        case .file(let file): file
        }
    }
}
