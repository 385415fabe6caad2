import Glibc

/// Gives freed heap memory back to the system, after work that leaves large buffers behind.
/// glibc's `<malloc.h>` is not in Swift's Glibc module: its functions are looked up.
public enum MemoryTrim {
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// `malloc_trim(0)`: returns the free pages of every arena.
    public static func releaseFreedMemory() { _ = trim?(0) }

    /// Has every allocation of at least `bytes` mapped on its own (`mallopt(M_MMAP_THRESHOLD)`),
    /// so that freeing it returns it to the system at once. glibc's own threshold starts at
    /// 128 KiB but rises to the size of each mapped block freed (up to 32 MiB): after one large
    /// message, the next ones would land in the heaps of the threads' arenas and stay resident
    /// there until trimmed. Setting it fixes it.
    public static func mapAllocations(atLeast bytes: Int) {
        let mmapThreshold: Int32 = -3 // M_MMAP_THRESHOLD
        _ = mallopt?(mmapThreshold, Int32(clamping: bytes))
    }
}
