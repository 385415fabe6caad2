import Glibc
import LeitnerSystem

/// The text of every card, case-folded, for `Search`: reading 200,000 side files per search
/// costs seconds (as `grep -r` does), scanning them in memory milliseconds.
///
/// Compact: one byte arena holds each card's folded id, front and back, each ended by a NUL,
/// and a slot per card says where. It is built on the first search, not at open, and kept
/// current without rescans:
///
/// - the box marks the cards it adds, edits, renames or deletes, and the cards a hand adds,
///   moves or removes (R13), `dirty`;
/// - each card directory is watched (inotify), so that a side edited in place by hand — any
///   editor, rewriting the file or renaming a new one over it — marks its card too (R13: the
///   next search finds the new text);
/// - before a search the dirty cards are read again; when the kernel dropped events, all are.
///
/// Only the first 64 KiB of a side are indexed (what a `Side` carries).
struct SearchIndex {
    struct Slot {
        var id: String
        /// Where the folded id starts in the arena; the front and back follow it.
        var offset: UInt32
        var idLength: UInt32
        var frontLength: UInt32
        var backLength: UInt32
        /// The card directory's inotify watch; -1 when it has none (the limit was reached):
        /// such a card is read again before every search.
        var watch: Int32
    }

    private(set) var slots: [Slot] = []
    private(set) var arena: [UInt8] = []
    /// Arena bytes no slot uses any more; compacted when they are half of it.
    private var garbage = 0
    /// Cards to read again before the next search.
    var dirty = Set<String>()
    /// Cards without a watch.
    private var unwatched = Set<String>()

    /// Reads every card of the store.
    init(store: Store) {
        slots.reserveCapacity(store.levelOf.count)
        for id in store.levelOf.keys { index(id, store: store) }
    }

    /// Takes in what changed since the last search: the cards marked dirty and those whose
    /// directories had events.
    mutating func update(store: Store) {
        if store.lostEvents {
            store.lostEvents = false
            store.cardEvents.removeAll()
            self = SearchIndex(store: store)
            return
        }
        if !store.cardEvents.isEmpty {
            let touched = Set(store.cardEvents)
            store.cardEvents.removeAll()
            for slot in slots where touched.contains(slot.watch) { dirty.insert(slot.id) }
        }
        dirty.formUnion(unwatched)
        guard !dirty.isEmpty else { return }
        var kept: [Slot] = []
        kept.reserveCapacity(slots.count)
        for slot in slots {
            if dirty.contains(slot.id) {
                garbage += Int(slot.idLength + slot.frontLength + slot.backLength) + 3
            } else {
                kept.append(slot)
            }
        }
        slots = kept
        unwatched.removeAll()
        for id in dirty where store.levelOf[id] != nil { index(id, store: store) }
        dirty.removeAll()
        if garbage > arena.count / 2 { compact() }
    }

    /// Appends one card: its folded id and text sides (a side of other media is empty here),
    /// and a watch on its directory.
    private mutating func index(_ id: String, store: Store) {
        guard let level = store.levelOf[id], let card = try? store.card(id, withText: true) else { return }
        let watch = (try? store.inotify.watch(directory: store.path(of: id, in: level))) ?? -1
        if watch < 0 { unwatched.insert(id) }
        let offset = UInt32(arena.count)
        let folded = [id, card.front.text ?? "", card.back.text ?? ""].map { Array(SearchIndex.fold($0).utf8) }
        for part in folded {
            arena.append(contentsOf: part)
            arena.append(0)
        }
        slots.append(Slot(id: id, offset: offset, idLength: UInt32(folded[0].count),
                          frontLength: UInt32(folded[1].count), backLength: UInt32(folded[2].count), watch: watch))
    }

    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(arena.count - garbage)
        for index in slots.indices {
            let slot = slots[index]
            let length = Int(slot.idLength + slot.frontLength + slot.backLength) + 3
            let start = Int(slot.offset)
            slots[index].offset = UInt32(packed.count)
            packed.append(contentsOf: arena[start..<start + length])
        }
        arena = packed
        garbage = 0
    }

    /// Case folding for matching: the text lower-cased, in every script that has case.
    static func fold(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) ? text : text.lowercased()
    }

    /// Calls `body` with each slot and its three folded parts (id, front, back).
    func forEach(_ body: (Slot, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        arena.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for slot in slots {
                let id = base + Int(slot.offset)
                let front = id + Int(slot.idLength) + 1
                let back = front + Int(slot.frontLength) + 1
                body(slot, UnsafeBufferPointer(start: id, count: Int(slot.idLength)),
                     UnsafeBufferPointer(start: front, count: Int(slot.frontLength)),
                     UnsafeBufferPointer(start: back, count: Int(slot.backLength)))
            }
        }
    }
}
