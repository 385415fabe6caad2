import Glibc
import LeitnerSystem

/// A group named in the configuration (`[Daemon] AllowGroup=`): by name or by number.
public enum GroupSelector: Sendable, Equatable, CustomStringConvertible {
    case name(String)
    case id(UInt32)

    /// The group's id, looked up in the group database (`getgrnam_r`) for a name.
    /// - Throws: `GroupSelectorError` naming the group when there is no such group or the
    ///   database cannot be read.
    public func resolve() throws(GroupSelectorError) -> UInt32 {
        switch self {
        case .id(let gid):
            return gid
        case .name(let name):
            var group = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            var buffer = [CChar](repeating: 0, count: 16_384)
            let status = getgrnam_r(name, &group, &buffer, buffer.count, &result)
            guard status == 0 else {
                throw GroupSelectorError(group: name, reason: Errno(rawValue: status).description)
            }
            guard let found = result else { throw GroupSelectorError(group: name, reason: "no such group") }
            return found.pointee.gr_gid
        }
    }

    /// The name or number as written.
    public var description: String {
        switch self {
        case .name(let name): name
        case .id(let gid): String(gid)
        }
    }
}
