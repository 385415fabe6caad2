import Glibc
import LeitnerSystem

/// Reading the review log in pieces: a log of a million lines is tens of megabytes, to be read
/// through, not held at once.
extension ReviewLog {
    /// Calls `body` with each entry from byte `offset` on and the offset of the line after it,
    /// reading 1 MiB at a time; lines that are not entries are passed over (`doctor` reports
    /// them). A last line without its newline is left for a later call.
    func forEachEntry(from offset: Int, _ body: (LogEntry, Int) -> Void) throws(BoxError) {
        do {
            let reader = try FileDescriptor.open(path, flags: O_RDONLY | O_NOFOLLOW)
            defer { reader.close() }
            var position = offset
            var carried: [UInt8] = []
            while true {
                let chunk = try reader.read(at: position, upTo: 1 << 20)
                if chunk.isEmpty { return }
                var lineStart = 0
                var index = 0
                chunk.withUnsafeBufferPointer { bytes in
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\n") {
                            let end = position + index + 1
                            if carried.isEmpty {
                                if let entry = LogLine.parse(chunk[lineStart..<index]) { body(entry, end) }
                            } else {
                                carried += chunk[lineStart..<index]
                                if let entry = LogLine.parse(carried[...]) { body(entry, end) }
                                carried = []
                            }
                            lineStart = index + 1
                        }
                        index += 1
                    }
                }
                carried += chunk[lineStart...]
                position += chunk.count
            }
        } catch {
            throw .storeFailure(path: path, reason: "cannot read: \(error)")
        }
    }
}
