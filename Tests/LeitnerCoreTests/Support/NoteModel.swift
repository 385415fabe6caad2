@testable import LeitnerCore

/// A small model of cloze notes and their cards (R30), written from docs/rules.md alone: which
/// notes exist with which deletion numbers, and every cloze card directory — the note and number
/// its `cloze-of` names, and its level. The box must agree with it after every step: each number
/// of each note has exactly one sound card, no card is lost or doubled, and a card keeps its
/// number and its level (its schedule) whatever happens to its note.
struct NoteModel {
    /// Each note in `notes/` → the deletion numbers its text holds.
    var notes: [String: Set<Int>] = [:]
    /// Each cloze card directory → what it names, and its level; nil level for a card the box
    /// adds at the next request, in `new/` or level 1 (R23), learnt when it is first seen.
    var cards: [String: (note: String, number: Int, level: Level?)] = [:]

    /// The note's cards, by id.
    func cards(of note: String) -> [String] {
        cards.filter { $0.value.note == note }.map(\.key).sorted()
    }

    /// True when the card shows: its note is there and holds its number (R21 otherwise).
    func isSound(_ id: String) -> Bool {
        guard let card = cards[id] else { return false }
        return notes[card.note]?.contains(card.number) == true
    }

    /// `AddCloze`: the note and one card a number, `NOTE.cN`.
    mutating func addCloze(_ note: String, numbers: Set<Int>, level: Level?) {
        notes[note] = numbers
        for number in numbers { cards["\(note).c\(number)"] = (note, number, level) }
    }

    /// The note's text now holds `numbers` (by hand, by `edit`): a number no card names gets its
    /// card; a card whose number left stays, damaged, and is sound again when it comes back.
    mutating func setNumbers(_ note: String, _ numbers: Set<Int>) {
        notes[note] = numbers
        carded(note)
    }

    /// Gives each number of the note that no card names its card `NOTE.cN` (its level unknown).
    mutating func carded(_ note: String) {
        guard let numbers = notes[note] else { return }
        let held = Set(cards.values.filter { $0.note == note }.map(\.number))
        for number in numbers.subtracting(held) { cards["\(note).c\(number)"] = (note, number, nil) }
    }

    /// A rename of the note (by request or by hand, seen): its cards name the new id.
    mutating func rename(_ note: String, to newID: String) {
        notes[newID] = notes.removeValue(forKey: note)
        follow(note, to: newID)
    }

    /// The cards of `note` name `newID`, the note's directory now.
    mutating func follow(_ note: String, to newID: String) {
        for id in cards(of: note) { cards[id]?.note = newID }
        carded(newID)
    }

    /// `Delete` of the note: its cards go with it, unless kept (damaged then).
    mutating func delete(_ note: String, keepingCards: Bool) {
        notes[note] = nil
        if !keepingCards { for id in cards(of: note) { cards[id] = nil } }
    }

    /// The notes a restart finds renamed while the box was closed (docs/rules.md, R30): a note
    /// none of whose cards exists, whose numbers are exactly those of the cards of one note gone
    /// from `notes/`, when no other such note has those numbers.
    func renamedWhileClosed() -> [(from: String, to: String)] {
        let named = Set(cards.values.map(\.note))
        let cardless = notes.filter { !$0.value.isEmpty && !named.contains($0.key) }
        var goneNumbers: [String: Set<Int>] = [:]
        for card in cards.values where notes[card.note] == nil { goneNumbers[card.note, default: []].insert(card.number) }
        var found: [(from: String, to: String)] = []
        for (note, numbers) in cardless.sorted(by: { $0.key < $1.key }) {
            let gone = goneNumbers.filter { $0.value == numbers }.map(\.key)
            guard gone.count == 1, cardless.values.filter({ $0 == numbers }).count == 1 else { continue }
            found.append((gone[0], note))
        }
        return found
    }
}
