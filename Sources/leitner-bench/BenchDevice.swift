import Glibc

/// The device the benchmark's boxes and daemons write as (docs/sync.md): the same in the
/// measuring process and in the daemons it starts, through a configuration file of its own, so
/// that no daemon reads the benchmark's log as another device's, and none makes a device id in
/// the user's home.
enum BenchDevice {
    static let name = "bench"

    /// Writes `leitner.conf` naming the device into `directory`; its path.
    static func configuration(in directory: String) -> String {
        let path = directory + "/leitner.conf"
        let text = "[Sync]\nDevice=\(name)\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
            _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        return path
    }
}
