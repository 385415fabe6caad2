/// A name given for the image protocol that is none of them.
public struct ImageProtocolNameError: Error, CustomStringConvertible, Equatable {
    public let name: String

    public var description: String {
        "'\(name)' is not an image protocol: use auto, " + ImageProtocol.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
