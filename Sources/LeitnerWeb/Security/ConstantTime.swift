/// Comparison of secrets whose time does not depend on where they differ, so that a client
/// cannot learn a token a byte at a time by timing its guesses.
public enum ConstantTime {
    /// True when `a` and `b` are the same bytes. The time depends only on the lengths, which
    /// are not secret (every token has the same length).
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        let count = max(x.count, y.count)
        for index in 0..<count {
            let p = index < x.count ? x[index] : 0
            let q = index < y.count ? y[index] : 0
            difference |= p ^ q
        }
        return difference == 0
    }
}
