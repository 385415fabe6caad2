/// What a file-sync tool leaves in a store (docs/sync.md): its temporary files and folders, the
/// copies it keeps of a file changed on two machines, and git's conflict markers in a text asset.
/// The rules are here and nowhere else: the scan of the level directories, the reading of a card's
/// sides, the adoption of loose pairs and `doctor` all ask this type, so that such a file is never
/// taken for a card, a side or an id.
///
/// The names are the tools' own (checked against their sources and a real run of Unison 2.52):
/// - Syncthing: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT` (older versions leave out
///   `-DEVICE`), temporaries `.syncthing.NAME.tmp` (`~syncthing~NAME.tmp` from Windows machines);
/// - Unison: `NAME (conflict_on_YYYY-MM-DD).EXT` and `NAME (conflict #N_on_YYYY-MM-DD).EXT`
///   (`-copyonconflict`), temporaries `.unison.NAME.HASH.unison.tmp`;
/// - Dropbox and Nextcloud: `NAME (WHO's conflicted copy DATE).EXT`, `NAME (conflicted copy DATE TIME).EXT`;
/// - git: lines `<<<<<<< `, `=======` and `>>>>>>> ` (and diff3's `||||||| `) in a file.
struct SyncArtifact: Equatable, Sendable {
    enum Tool: String, Sendable {
        case syncthing = "Syncthing"
        case unison = "Unison"
        case dropbox = "Dropbox or Nextcloud"
        case git
    }

    enum Kind: Equatable, Sendable {
        /// A file or folder the tool is still writing; it is renamed to its real name when whole.
        case temporary
        /// The copy a tool kept of a file changed on two machines; `original` is the name it
        /// stands for (`back.txt` for `back.sync-conflict-20261122-101500-ABCDEFG.txt`).
        case conflictCopy(original: String)
    }

    var tool: Tool
    var kind: Kind

    /// Recognises a file or folder name a sync tool made; nil for any other name.
    init?(fileName name: String) {
        // Most names are card ids and sides, and the scan at open asks about every one of them:
        // one pass over the bytes tells them apart before any other work.
        guard let (parenthesis, syncthing) = SyncArtifact.clues(name) else { return nil }
        if (name.hasPrefix(".syncthing.") || name.hasPrefix("~syncthing~")) && name.hasSuffix(".tmp") {
            self.init(tool: .syncthing, kind: .temporary)
        } else if name.hasPrefix(".unison.") && name.hasSuffix(".tmp") {
            self.init(tool: .unison, kind: .temporary)
        } else if syncthing, let original = SyncArtifact.syncthingOriginal(name) {
            self.init(tool: .syncthing, kind: .conflictCopy(original: original))
        } else if parenthesis, let original = SyncArtifact.parenthesisedOriginal(name, marked: { SyncArtifact.isUnisonMark($0) }) {
            self.init(tool: .unison, kind: .conflictCopy(original: original))
        } else if parenthesis, let original = SyncArtifact.parenthesisedOriginal(name, marked: { $0.contains("conflicted copy") }) {
            self.init(tool: .dropbox, kind: .conflictCopy(original: original))
        } else {
            return nil
        }
    }

    init(tool: Tool, kind: Kind) {
        self.tool = tool
        self.kind = kind
    }

    /// The name the copy stands for, nil for a temporary.
    var original: String? {
        if case .conflictCopy(let original) = kind { return original }
        return nil
    }

    /// `back.sync-conflict-20261122-101500-ABCDEFG.txt` → `back.txt`: the digits must be there,
    /// so that an id that merely contains the words is not taken for a copy.
    private static let syncthingMark = Array(".sync-conflict-".utf8)

    /// Whether the name holds a `(` and Syncthing's `.sync-conflict-`; nil when it can be no
    /// tool's name at all (it starts with neither `.` nor `~` and holds neither). A plain loop:
    /// the generic collection searches cost microseconds a name, seconds for a large store.
    private static func clues(_ name: String) -> (parenthesis: Bool, syncthing: Bool)? {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first else { return nil }
            var parenthesis = false, syncthing = false
            let mark = syncthingMark
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "(") {
                    parenthesis = true
                } else if byte == UInt8(ascii: "."), !syncthing, bytes.count - at >= mark.count {
                    var matched = 1
                    while matched < mark.count, bytes[at + matched] == mark[matched] { matched += 1 }
                    syncthing = matched == mark.count
                }
                at += 1
            }
            guard first == UInt8(ascii: ".") || first == UInt8(ascii: "~") || parenthesis || syncthing else { return nil }
            return (parenthesis, syncthing)
        }
    }

    private static func syncthingOriginal(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        let mark = syncthingMark
        guard let start = bytes.firstRange(of: mark)?.lowerBound, start > 0 else { return nil }
        var at = start + mark.count
        func digits(_ count: Int) -> Bool {
            guard at + count <= bytes.count, bytes[at..<at + count].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            at += count
            return true
        }
        guard digits(8), at < bytes.count, bytes[at] == UInt8(ascii: "-") else { return nil }
        at += 1
        guard digits(6) else { return nil }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") {
            // The short id of the device that made the change: letters and digits.
            at += 1
            let idStart = at
            while at < bytes.count, bytes[at] < 0x80, Character(Unicode.Scalar(bytes[at])).isLetter
                    || Character(Unicode.Scalar(bytes[at])).isNumber { at += 1 }
            guard at > idStart else { return nil }
        }
        // What follows is the extension of the original name, or nothing.
        guard at == bytes.count || bytes[at] == UInt8(ascii: ".") else { return nil }
        return String(decoding: bytes[..<start] + bytes[at...], as: UTF8.self)
    }

    /// `conflict_on_2026-11-24` and `conflict #1_on_2026-11-24`, Unison 2.52's marks.
    private static func isUnisonMark(_ mark: Substring) -> Bool {
        guard mark.hasPrefix("conflict"), let on = mark.firstRange(of: "_on_") else { return false }
        let number = mark[mark.index(mark.startIndex, offsetBy: "conflict".count)..<on.lowerBound]
        guard number.isEmpty || (number.hasPrefix(" #") && number.dropFirst(2).allSatisfy(\.isNumber) && number.count > 2)
        else { return false }
        return !mark[on.upperBound...].isEmpty
    }

    /// `NAME (MARK).EXT` or `NAME (MARK)` → `NAME.EXT`, when `marked` accepts MARK.
    private static func parenthesisedOriginal(_ name: String, marked: (Substring) -> Bool) -> String? {
        // The last " (" of the name: NAME itself may hold parentheses.
        guard let open = name.ranges(of: " (").last, open.lowerBound > name.startIndex,
              let close = name[open.upperBound...].firstIndex(of: ")") else { return nil }
        let rest = name[name.index(after: close)...]
        guard rest.isEmpty || (rest.hasPrefix(".") && !rest.dropFirst().contains(" ")) else { return nil }
        guard marked(name[open.upperBound..<close]) else { return nil }
        return String(name[..<open.lowerBound] + rest)
    }

    // MARK: Git's conflict markers

    /// Which side of each conflicting hunk to keep.
    enum MarkerSide: String, Sendable, CaseIterable {
        /// Between `<<<<<<< ` and `=======` (the branch merged into: this machine's).
        case mine
        /// Between `=======` and `>>>>>>> ` (the branch merged in: the other machine's).
        case theirs

        /// The hunks a resolution keeps; nil for a copy's name, which git's markers have not.
        init?(_ resolution: ConflictResolution) {
            switch resolution {
            case .mine: self = .mine
            case .theirs: self = .theirs
            case .copy: return nil
            }
        }
    }

    /// True when the text holds at least one whole conflicting hunk as git writes it.
    static func hasConflictMarkers(_ text: some StringProtocol) -> Bool {
        // Every text side of a listing passes here: one byte scan rules out nearly all of them.
        hasOpeningMarker(String(text)) && resolvingMarkers(String(text), keeping: .mine) != nil
    }

    /// Seven `<` at the start of a line, found by a plain loop over the bytes.
    private static func hasOpeningMarker(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var run = 0, lineStart = true
            for byte in bytes {
                if byte == UInt8(ascii: "<"), lineStart || run > 0 {
                    run += 1
                    if run == 7 { return true }
                    lineStart = false
                } else {
                    run = 0
                    lineStart = byte == UInt8(ascii: "\n")
                }
            }
            return false
        }
    }

    /// The text with each conflicting hunk replaced by one of its sides (diff3's common
    /// ancestor, after `||||||| `, is dropped); nil when the text has no whole hunk, or a hunk
    /// that is not closed, so that a text merely quoting a marker is left alone.
    static func resolvingMarkers(_ text: String, keeping side: MarkerSide) -> String? {
        enum Part { case outside, mine, base, theirs }
        var part = Part.outside
        var hunks = 0
        var kept: [Substring] = []
        for line in text.lines {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            switch part {
            case .outside where isMarker(bare, "<<<<<<<"): part = .mine
            case .mine where isMarker(bare, "|||||||"): part = .base
            case .mine where bare == "=======", .base where bare == "=======": part = .theirs
            case .theirs where isMarker(bare, ">>>>>>>"):
                part = .outside
                hunks += 1
            case .outside: kept.append(line)
            case .mine: if side == .mine { kept.append(line) }
            case .theirs: if side == .theirs { kept.append(line) }
            case .base: break
            }
        }
        guard part == .outside, hunks > 0 else { return nil }
        return kept.joined(separator: "\n")
    }

    /// `<<<<<<<` alone, or followed by a space and a label (`<<<<<<< HEAD`).
    private static func isMarker(_ line: Substring, _ marker: String) -> Bool {
        line == marker || line.hasPrefix(marker + " ")
    }
}
