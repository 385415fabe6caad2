import Glibc

/// Gives freed heap memory back to the system (`malloc_trim(0)`), after work that leaves large
/// buffers behind. glibc's `<malloc.h>` is not in Swift's Glibc module: look it up.
enum MemoryTrim {
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    static func releaseFreedMemory() { _ = trim?(0) }
}
