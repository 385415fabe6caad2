/// Why the device id cannot be had: the file and the reason.
public struct DeviceIDError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
