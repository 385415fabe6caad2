import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `edit ID [--front|--back] [--as EXT]`: opens the card's text sides in the person's editor, on
/// temporary copies named `front.EXT`/`back.EXT` (so that the editor knows Markdown), and sends
/// what changed with `Edit`. `rename OLD NEW`: a new id with `Rename`.
enum EditCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let id = arguments.positionals[0]
        let sides = SideName.allCases.filter { arguments.has(.only($0)) || arguments[.file($0)] != nil }
        var changes: [SideName: Asset] = [:]
        // Sides given as files replace the card's sides without an editor.
        for side in SideName.allCases {
            if let path = arguments[.file(side)] { changes[side] = try AssetFile.file(path, side: side) }
        }
        if !changes.isEmpty { return try send(id, changes, context: context) }
        let newExtension = try arguments[.saveAs].map { try extensionArgument($0) }
        let edited = try inEditor(id, sides: sides.isEmpty ? nil : sides, newExtension: newExtension, context: context) {
            Console.error($0)
        }
        changes = edited.changes
        let shown = edited.shown
        if changes.isEmpty {
            if context.json { return context.printJSON(["card": shown.json["card"] ?? .null, "changed": false]) }
            return Console.out("'\(id)' unchanged.")
        }
        try send(id, changes, context: context)
    }

    /// The editor's flow, shared by `edit` and the review's `e`: the card's text `sides` (nil:
    /// every text side, with a `note` for each side that is not text) written to a private
    /// directory as `front.EXT`/`back.EXT` (`newExtension` renames them), the person's editor run
    /// on them, and the sides that changed read back. Nothing is sent to the daemon.
    /// - Returns: the card as `Show` gave it before the editor, and the changed sides (none when
    ///   the person saved nothing new).
    /// - Throws: `Failure.failed` naming the card, the side or the file and why, when a side
    ///   cannot be edited as text, the editor fails, or a side comes back empty or not UTF-8.
    static func inEditor(_ id: String, sides requested: [SideName]?, newExtension: String?, context: Context,
                         note: (String) -> Void) throws -> (shown: BoxReply<Card>, changes: [SideName: Asset]) {
        var sides = requested ?? SideName.allCases
        var changes: [SideName: Asset] = [:]
        let shown = try context.box.show(id: id)
        // Without --front or --back, a card with one text side (an image's caption) opens
        // that side, and a note says how to replace the other.
        let textSides = sides.filter { MediaType.isText(shown.value.side($0).mediaType) }
        if requested == nil && !textSides.isEmpty && textSides != sides {
            for side in sides where !textSides.contains(side) {
                note("the \(side) of '\(id)' is \(shown.value.side(side).mediaType), not text: only the "
                     + "\(textSides[0]) is opened ('edit \(id) --\(side)-file FILE' replaces the \(side))")
            }
            sides = textSides
        }
        for side in sides where !MediaType.isText(shown.value.side(side).mediaType) {
            throw Failure.failed("cannot edit the \(side) of '\(id)' in a text editor: it is \(shown.value.side(side).mediaType) "
                                 + "('\(shown.value.side(side).path)'); replace it with 'edit \(id) --\(side)-file FILE'")
        }
        let directory: String
        do { directory = try FileSystem.makeTemporaryDirectory(prefix: "leitner-edit") } catch {
            throw Failure.failed("cannot make a temporary directory: \(error)")
        }
        defer { removeTemporary(directory) }
        var originals: [SideName: (name: String, bytes: [UInt8])] = [:]
        var paths: [String] = []
        for side in sides {
            // The exact bytes, whatever their size (`Show` carries at most 64 KiB of text).
            let asset = try context.box.readAsset(id: id, side: side).value
            let bytes = asset.content
            let current = asset.name
            let name = newExtension.map { "\(side).\($0)" } ?? current
            let path = directory + "/" + name
            do {
                let file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
                defer { file.close() }
                try file.writeAll(bytes)
            } catch {
                throw Failure.failed("cannot write '\(path)': \(error)")
            }
            originals[side] = (current, Array(bytes))
            paths.append(path)
        }
        let editor = Editor.fromEnvironment()
        let termination: ChildProcess.Termination
        do { termination = try editor.edit(paths) } catch {
            throw Failure.failed("cannot start the editor '\(editor.command)': \(error)")
        }
        guard termination == .exited(0) else {
            throw Failure.failed("the editor '\(editor.command)' \(termination); '\(id)' not changed")
        }
        for side in sides {
            guard let (name, bytes) = try edited(side, in: directory), let original = originals[side] else {
                throw Failure.failed("the \(side) of '\(id)' is gone from '\(directory)'; '\(id)' not changed")
            }
            guard name != original.name || bytes != original.bytes else { continue }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure.failed("the \(side) of '\(id)' is not UTF-8 text any more; '\(id)' not changed")
            }
            if text.allSatisfy(\.isWhitespace) {
                throw Failure.failed("the \(side) of '\(id)' is empty; '\(id)' not changed")
            }
            changes[side] = Asset(name: name, text: text)
        }
        return (shown, changes)
    }

    /// Sends an `Edit` and says what it did.
    static func send(_ id: String, _ changes: [SideName: Asset], context: Context) throws {
        let reply = try context.box.edit(id: id, front: changes[.front], back: changes[.back])
        if context.json { return context.printJSON(reply.json) }
        let card = reply.value.card
        guard reply.value.changed else { return Console.out("'\(card.id)' unchanged.") }
        let sides = SideName.allCases.filter { changes[$0] != nil }.map(\.rawValue).joined(separator: " and ")
        Console.out("Edited the \(sides) of '\(card.id)' (\(Views.place(card.level))).")
    }

    /// The file that holds a side after the editor: `front.EXT`, any extension (an editor may have
    /// saved it under another, `front.md` for `front.txt`); of several, the last written.
    static func edited(_ side: SideName, in directory: String) throws -> (name: String, bytes: [UInt8])? {
        let entries: [DirectoryEntry]
        let handle: FileDescriptor
        do {
            handle = try FileDescriptor.openDirectory(directory)
            entries = try FileSystem.list(handle)
        } catch {
            throw Failure.failed("cannot read '\(directory)': \(error)")
        }
        defer { handle.close() }
        var newest: (name: String, time: Int)?
        for entry in entries where entry.name.hasPrefix(side.rawValue + ".") {
            guard let ext = MediaType.fileExtension(entry.name), "\(side).\(ext)" == entry.name,
                  isExtension(ext),
                  let st = try? FileSystem.status(entry.name, in: handle), st.st_mode & S_IFMT == S_IFREG else { continue }
            let time = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
            if newest == nil || time > newest!.time { newest = (entry.name, time) }
        }
        guard let name = newest?.name else { return nil }
        do { return (name, try FileSystem.readFile(name, in: handle, limit: AssetFile.maxSize)) } catch {
            throw Failure.failed("cannot read '\(directory)/\(name)': \(error)")
        }
    }

    /// `--as md`: an extension of letters and digits, said with or without its dot.
    static func extensionArgument(_ value: String) throws -> String {
        let ext = value.hasPrefix(".") ? String(value.dropFirst()) : value
        guard isExtension(ext),
              MediaType.isText(MediaType.of(fileName: "x." + ext)) else {
            throw Failure.usage(.invalidValue(value, what: "extension", reason: "expected a text extension: txt or md", command: "edit"))
        }
        return ext.lowercased()
    }

    /// 1 to 16 ASCII letters and digits, as the daemon takes them (docs/protocol.md).
    static func isExtension(_ ext: String) -> Bool {
        !ext.isEmpty && ext.utf8.count <= 16 && ext.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    static func removeTemporary(_ directory: String) {
        guard let handle = try? FileDescriptor.openDirectory(directory) else { return }
        for entry in (try? FileSystem.list(handle)) ?? [] { try? FileSystem.removeTree(entry.name, in: handle) }
        handle.close()
        try? FileSystem.removeDirectory(directory, in: nil)
    }

    /// `rename OLD NEW`.
    static func rename(_ context: Context, _ arguments: ParsedArguments) throws {
        let reply = try context.box.rename(id: arguments.positionals[0], to: arguments.positionals[1])
        if context.json { return context.printJSON(reply.json) }
        // The daemon renames nothing and logs nothing when the id is the same (as `edit` with no change).
        if arguments.positionals[0] == arguments.positionals[1] { return Console.out("'\(arguments.positionals[0])' unchanged.") }
        // A note (R30) renamed: the daemon answers with its first card, whose id stays.
        if reply.value.id != arguments.positionals[1], reply.value.clozeOf?.note == arguments.positionals[1] {
            return Console.out("Renamed the note '\(arguments.positionals[0])' to '\(arguments.positionals[1])'; its cards keep their ids.")
        }
        Console.out("Renamed '\(arguments.positionals[0])' to '\(reply.value.id)' (\(Views.place(reply.value.level))).")
    }
}
