import Glibc
import LeitnerSystem

/// A fresh temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() {
        var template = Array("/tmp/leitner-test-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func remove() {
        if let fd = try? FileDescriptor.openDirectory("/tmp") {
            try? FileSystem.removeTree(String(path.dropFirst(5)), in: fd)
            fd.close()
        }
    }

    /// Writes a file (creating parent directories).
    public func write(_ relative: String, _ text: String) {
        let parts = relative.split(separator: "/")
        var dir = path
        for part in parts.dropLast() {
            dir += "/" + part
            mkdir(dir, 0o755)
        }
        let fd = Glibc.open(path + "/" + relative, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        Glibc.close(fd)
    }

    public func exists(_ relative: String) -> Bool { access(path + "/" + relative, F_OK) == 0 }

    /// `mv` inside the directory.
    public func move(_ from: String, _ to: String) {
        precondition(rename(path + "/" + from, path + "/" + to) == 0, "rename \(from) \(to) failed")
    }

    /// Every path below the directory, sorted, with file contents: a snapshot to compare.
    public func snapshot(excluding: String = ".leitner") -> [String] {
        var result: [String] = []
        func walk(_ relative: String) {
            guard let fd = try? FileDescriptor.openDirectory(path + relative) else { return }
            defer { fd.close() }
            for entry in ((try? FileSystem.list(fd)) ?? []).sorted(by: { $0.name < $1.name }) {
                let child = relative + "/" + entry.name
                if child == "/" + excluding { continue }
                if entry.kind == .directory {
                    result.append(child + "/")
                    walk(child)
                } else if entry.kind == .symlink {
                    // Never read through a link (one may lead to /etc) nor open a FIFO (it blocks).
                    result.append(child + " -> " + ((try? FileSystem.linkTarget(entry.name, in: fd)) ?? "?"))
                } else if entry.kind == .file {
                    let bytes = (try? FileSystem.readFile(atPath: path + child)) ?? []
                    result.append(child + " = " + String(decoding: bytes, as: UTF8.self))
                } else {
                    result.append(child + " (\(entry.kind))")
                }
            }
        }
        walk("")
        return result
    }
}
