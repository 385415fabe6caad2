import LeitnerProtocol
import LeitnerVarlink

/// The daemon's side of `org.varlink.service`: what the service is (`GetInfo`) and the IDL text
/// of its interfaces (`GetInterfaceDescription`). Needs no box: the dispatcher's method table
/// (`Dispatcher.methods`) names both as the daemon's own.
enum ServiceInterface {
    static let name = VarlinkServiceInterface.name

    static let vendor = "leitner"
    static let product = "leitnerd"
    static let version = "0.1.0"
    static let url = "https://github.com/leitner/leitner"

    /// Every interface the daemon implements, with its IDL text.
    static let descriptions: [(name: String, text: String)] = [
        (VarlinkServiceInterface.name, VarlinkServiceInterface.description),
        (BoxInterface.name, BoxInterface.description),
    ]

    static func getInfo(_ parameters: CallParameters) throws -> [String: JSONValue] {
        return [
            "vendor": .string(vendor),
            "product": .string(product),
            "version": .string(version),
            "url": .string(url),
            "interfaces": .array(descriptions.map { .string($0.name) }),
        ]
    }

    static func getInterfaceDescription(_ parameters: CallParameters) throws -> [String: JSONValue] {
        let interface = try parameters.string("interface")
        guard let entry = descriptions.first(where: { $0.name == interface }) else {
            throw InterfaceNotFound(interface: interface)
        }
        return ["description": .string(entry.text)]
    }
}
