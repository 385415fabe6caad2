/// Why the configuration cannot be used. Its description reads like a Unix tool's message:
/// `/etc/leitner/leitner.conf:12: unknown key 'Foo' in section [Daemon]`.
public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read: `cannot read 'PATH': reason`.
    case cannotRead(path: String, reason: String)
    /// A line of the file is wrong: `FILE:LINE: message`.
    case invalidLine(path: String, line: Int, message: String)
    /// A directory the socket would go in is unsafe or cannot be made:
    /// `cannot use 'PATH': reason`.
    case cannotUseDirectory(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read '\(path)': \(reason)"
        case .invalidLine(let path, let line, let message): "\(path):\(line): \(message)"
        case .cannotUseDirectory(let path, let reason): "cannot use '\(path)': \(reason)"
        }
    }
}
