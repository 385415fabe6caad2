/// Helpers of the line-based text formats (the configuration, the day record).
extension StringProtocol {
    /// The lines of the text, split at each `\n` byte (a `\r\n` pair is one `Character` in
    /// Swift, so splitting by characters would miss it). The last element is what follows the
    /// last newline: empty when the text ends with one.
    var lines: [Substring] {
        let whole = Substring(self)
        return whole.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { Substring($0) }
    }

    /// The text without the spaces, tabs and carriage returns around it.
    var trimmingBlanks: SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isBlank($0) })!
        return self[first...last]
    }
}
