/// Lines of terminal text (which may hold SGR escape sequences) made to fit a width: a line
/// wider than the screen would wrap on its own and push the rest of the screen down.
public enum TerminalText {
    /// `text` cut to `width` columns, with `…` in the last column when something was cut.
    /// Escape sequences are kept (they take no column); a cut line ends with a reset.
    public static func clip(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(text) > width else { return text }
        var out = ""
        var used = 0
        var escape = false
        for scalar in text.unicodeScalars {
            if escape || scalar == "\u{1B}" {
                out.unicodeScalars.append(scalar)
                escape = scalar == "\u{1B}" || scalar == "[" || !(0x40...0x7E).contains(scalar.value)
                continue
            }
            let columns = DisplayWidth.of(scalar)
            if used + columns > width - 1 { break }
            out.unicodeScalars.append(scalar)
            used += columns
        }
        return out + "…" + (out.contains("\u{1B}") ? "\u{1B}[0m" : "")
    }

    /// `text` broken into lines of at most `width` columns, wherever the width runs out (for
    /// lines that cannot be wrapped at spaces: code, long words). The colours and styles in
    /// force at a break are closed there and opened again on the next line.
    public static func hardWrap(_ text: String, width: Int) -> [String] {
        guard width > 0, DisplayWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        var used = 0
        var sequence = ""
        var active = ""
        for scalar in text.unicodeScalars {
            if !sequence.isEmpty || scalar == "\u{1B}" {
                sequence.unicodeScalars.append(scalar)
                if scalar != "\u{1B}" && scalar != "[" && (0x40...0x7E).contains(scalar.value) {
                    // An SGR reset ends what is active; any other SGR adds to it.
                    if sequence == "\u{1B}[0m" || sequence == "\u{1B}[m" { active = "" } else if scalar == "m" { active += sequence }
                    line += sequence
                    sequence = ""
                }
                continue
            }
            let columns = DisplayWidth.of(scalar)
            if used + columns > width {
                lines.append(active.isEmpty ? line : line + "\u{1B}[0m")
                line = active
                used = 0
            }
            line.unicodeScalars.append(scalar)
            used += columns
        }
        lines.append(line)
        return lines
    }

    /// `parts` joined with ` · ` into as few lines of `width` columns as they fit, never
    /// splitting a part (a part wider than the line is clipped).
    public static func pack(_ parts: [String], width: Int, separator: String = " · ") -> [String] {
        var lines: [String] = []
        var line = ""
        for part in parts where !part.isEmpty {
            let candidate = line.isEmpty ? part : line + separator + part
            if DisplayWidth.of(candidate) <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = part
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { clip($0, width: width) }
    }
}
