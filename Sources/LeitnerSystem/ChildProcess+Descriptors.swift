import Glibc

extension ChildProcess {
    /// Adds to `actions` the closing of every descriptor above standard error, so that a child
    /// inherits only its standard input, output and error. A descriptor the caller was given
    /// without close-on-exec (a pipe from `cmd 3>&1 | …`, a socket from systemd's `LISTEN_FDS`)
    /// would otherwise be held open by the child for as long as it lives: an autostarted
    /// daemon kept its client's pipe open for its ten idle minutes (docs/leitnerctl.md,
    /// "Autostart").
    ///
    /// Uses glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the headers do
    /// not export to Swift, and on an older glibc closes each descriptor listed in
    /// `/proc/self/fd` one by one.
    /// - Parameters:
    ///   - actions: initialised file actions; the closing runs after the actions already added.
    ///   - keeping: descriptors above 2 the child is meant to have (none by default).
    public static func closeInheritedDescriptors(in actions: inout posix_spawn_file_actions_t,
                                                 keeping: Set<Int32> = []) {
        if keeping.isEmpty, let closeFrom = addCloseFrom {
            _ = closeFrom(&actions, 3)
            return
        }
        for descriptor in openDescriptors() where descriptor > 2 && !keeping.contains(descriptor) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// The descriptors open in this process, from `/proc/self/fd` (without the one used to
    /// read it). glibc ignores a close action whose descriptor is already closed.
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if let descriptor = Int32(name), descriptor != own { found.append(descriptor) }
        }
        return found
    }
}
