import Glibc

/// Random bytes from the kernel's generator (`getrandom`), for secrets: `leitner-web`'s token,
/// its sessions and their CSRF tokens. Blocks only before the kernel's pool is first seeded.
public enum RandomBytes {
    /// `count` random bytes.
    /// - Throws: `Errno` when the kernel refuses (`ENOSYS` on a kernel older than 3.17).
    public static func make(_ count: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            // getrandom returns at most 32 MiB at a time and may return less when interrupted.
            filled += try valueOrErrno {
                bytes.withUnsafeMutableBytes { raw in getrandomCall(raw.baseAddress! + filled, count - filled, 0) }
            }
        }
        return bytes
    }

    /// `count` random bytes as lower-case hexadecimal (`2 * count` characters).
    public static func hex(_ count: Int) throws(Errno) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in try make(count) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// glibc has `getrandom` (2.25), but the module map does not include `<sys/random.h>`: look it up,
/// as `accept4` is.
private let getrandomCall: @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getrandom") else {
        fatalError("the C library has no getrandom")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int).self)
}()
