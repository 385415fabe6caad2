/// `GetInterfaceDescription` of an interface the daemon does not implement.
struct InterfaceNotFound: Error {
    var interface: String
}
