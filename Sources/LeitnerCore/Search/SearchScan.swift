/// A `Search` in progress, in three kinds of steps so that no pattern holds the box's turn
/// (docs/daemon.md, "Streamed replies"; docs/performance.md, "A search's work budget"):
///
/// 1. `Box.startSearch`, under the turn: the index brought up to date and kept as it is then
///    (a copy of its pieces: the box's next update of its own index copies the pieces it
///    changes, once, if this one still holds them, `SearchIndex.SlotPiece`).
/// 2. `find`, anywhere: the cards whose text matches in that copy, sorted by level then id as
///    far as the search's `cards` or `limit` asks (the rest ordered only if cards read do not
///    match any more, `moreHits`).
/// 3. `Box.readCards`, under the turn, a batch at a time: each card as it is now in the store;
///    then `matchRead`, anywhere: the lines of those cards that match.
///
/// A search that began the index's build (`Box.startSearch` with `duringBuild`) needs no index
/// at step 1: the build reads the cards in the order of the lines, level then id, a piece of
/// 1,024 at a time; step 2 waits for each piece in turn and finds in it, so that the first
/// piece's lines are given while the rest is read (docs/daemon.md, "Indexes built off the turn").
/// A search that joined a build the daemon began as it opened the box (`Box.buildSearchIndexAhead`)
/// finds in its pieces the same way; when cards changed between the build's snapshot and the
/// search's start, then also, once the build is done, in the whole index as the next request
/// installs it, brought up to date, for the cards it did not read: those changed since the
/// snapshot come last (`awaitsIndex`).
/// A search without `limit` or `cards` that finds in a build's pieces and would wait for the
/// next one answers first from the index's file as the build read it (`findInFile`): the cards
/// whose text there matches, each read now before its lines are given; the pieces then give the
/// others, so that a card edited since the file was written to match comes after them.
/// Should that build give up because its box closed (a reload reopening the box with a new
/// schedule), the search is begun again in the box that replaced it, leaving out the cards it
/// has read already (`Box.readCards`): a reload changes no card, and ends no search.
///
/// Steps 2 and 3's matching run the regular-expression engine, whose worst case is text ×
/// program (a pattern that keeps 10,000 states alive takes seconds on a 64 KiB side): they take
/// their steps from the search's `budget`, and a search that spends it is cut with `searchCut`.
/// Neither runs under the turn in the daemon, so the box answers other calls meanwhile.
public struct SearchScan {
    /// A card the index found: where it was and which of its fields matched, one bit a field
    /// (in `SearchMatch.Field.allCases` order) rather than an array, which would be one more
    /// allocation for each of 100,000 matching cards.
    struct Hit {
        let level: Level
        let id: String
        let fieldBits: UInt8
        /// False for a card the index has not matched: the fields to look in, not the fields
        /// that matched; its id and tags are asked when it is read.
        var matched = true

        /// The fields that matched, in the order their lines are given: id, front, back.
        var fields: [SearchMatch.Field] { SearchMatch.Field.allCases.filter { fieldBits & Hit.bit($0) != 0 } }

        /// The bit of `field` in `fieldBits`.
        static func bit(_ field: SearchMatch.Field) -> UInt8 {
            switch field {
            case .id: 1
            case .front: 2
            case .back: 4
            }
        }
    }

    /// A card the index matched, before its id is made a String: made only for the cards given,
    /// a page's of a search every card matches rather than 100,000 (`moreHits`).
    struct Found {
        let number: Int
        let level: UInt8
        let fieldBits: UInt8
    }

    /// What the index is asked besides the pattern.
    struct Criteria {
        let fields: Set<SearchMatch.Field>
        let filter: TagFilter
    }

    /// A card of a batch, read under the turn, whose lines are matched after it.
    struct ReadCard {
        let hit: Hit
        let level: Level
        let card: Card
    }

    /// The steps of the regular-expression engine (`RegexProgram.run`: states entered) one
    /// search may take, finding and matching lines together: about 1 s of one core at the
    /// engine's speed here (docs/performance.md). A search of 100,000 cards of everyday text
    /// takes a few percent of it; a pattern that keeps thousands of states alive on long sides
    /// spends it and is cut, where it would have run for minutes.
    public static let defaultBudget = 400_000_000

    let pattern: SearchPattern
    let only: Level?
    /// The index as the search began, until `find` has run; then nil, so that it is let go.
    private var snapshot: (index: SearchIndex, criteria: Criteria)?
    /// The index's build this search began and the numbers of the pieces left to find in (for
    /// a search of one level, its pieces: nil until known), until the last; then nil.
    private var building: (build: IndexBuild, criteria: Criteria, pieces: Range<Int>?)?
    /// The build this search began, if it did, for a caller to know when it is done.
    public private(set) var build: IndexBuild?
    /// The build this search was finding in when it gave up, its box closing, and what the
    /// search asks of the index, until the search is begun again (`resume`).
    private(set) var leftBuild: (build: IndexBuild, criteria: Criteria)?
    /// The cards read so far by a search that finds in a build's pieces, which one begun again
    /// leaves out: their lines were given. Only such a search is ever begun again.
    private var readIDs: Set<String> = []
    /// True for a search that joined a build begun before it when cards changed since the
    /// build's snapshot (`init(joining:)`): it finds in the whole index last.
    private var joined = false
    /// True for a search without `limit` or `cards` that finds in a build's pieces, until it
    /// first waits for a piece: it then answers from the index's file first (`findInFile`).
    private var fromFile = false
    /// What a search that joined a build asks of the index, once the build is done and until
    /// `Box.readCards` hands it the index installed (`resume(index:)`).
    private var lastPass: Criteria?
    /// The cards found and not yet read: of the whole index, or of the piece the build read last;
    /// in order, before every card of `unordered`.
    private var hits: [Hit] = []
    /// The matching cards after `hits`, not yet put in order, and the index their slots are of
    /// (kept until they are ordered or the search ends); nil when there are none.
    private var unordered: (index: SearchIndex, found: [Found])?
    /// The index in `hits` of the next card to read.
    private(set) var position = 0
    /// The cards read by `Box.readCards`, whose lines `matchRead` gives next.
    private var read: [ReadCard] = []
    /// The filter the cards found after the build (`Hit.matched` false) are asked when read.
    private var lateFilter = TagFilter.all
    /// The lines still to give before `limit` is reached; nil for no limit.
    private(set) var remaining: Int?
    /// The cards still to give lines of before `cards` is reached; nil for no such limit. A
    /// batch reads no more cards than this (`Box.readCards`): a client that asks for a page of
    /// cards gets the end of the replies after them, where it left the stream and the daemon
    /// read a batch of cards past them under the box's turn (docs/performance.md).
    private(set) var cardsLeft: Int?
    /// Steps of the engine the search may still take, of `allowance`.
    private(set) var budget: Int
    private let allowance: Int

    /// True once every matching card has been read and matched, or a limit reached.
    public var isFinished: Bool {
        snapshot == nil && read.isEmpty
            && (remaining == 0 || cardsLeft == 0
                || position >= hits.count && unordered == nil && building == nil && leftBuild == nil && lastPass == nil)
    }

    /// True when the search waits for the index installed, to find in it the cards it did not
    /// read (`Box.readCards`, `resume(index:)`).
    var awaitsIndex: Bool { lastPass != nil && read.isEmpty && position >= hits.count && unordered == nil }

    /// True when the next step is reading cards from the store (`Box.readCards`), under the
    /// box's turn; false when it is `find` or `matchRead`, which need no box.
    public var needsBox: Bool { snapshot == nil && read.isEmpty && !(building != nil && position >= hits.count) }

    /// How many cards matched in the index when the search began (once `find` has run).
    public var cards: Int { hits.count + (unordered?.found.count ?? 0) }

    /// How many of them are in order so far (`moreHits`): with `cards` or `limit`, about that many.
    var ordered: Int { hits.count }

    init(pattern: SearchPattern, only: Level?, index: SearchIndex, criteria: Criteria, limit: Int?, cards: Int?,
         budget: Int = SearchScan.defaultBudget) {
        self.pattern = pattern
        self.only = only
        self.snapshot = (index, criteria)
        self.build = nil
        self.remaining = limit
        self.cardsLeft = cards
        self.budget = budget
        self.allowance = budget
    }

    /// A search that finds in each piece as `build` reads it.
    init(pattern: SearchPattern, only: Level?, building build: IndexBuild, criteria: Criteria, limit: Int?, cards: Int?,
         budget: Int = SearchScan.defaultBudget) {
        self.pattern = pattern
        self.only = only
        self.building = (build, criteria, only == nil ? 0..<Int.max : nil)
        self.build = build
        self.remaining = limit
        self.cardsLeft = cards
        self.budget = budget
        self.allowance = budget
        fromFile = limit == nil && cards == nil
    }

    /// A search that finds in each piece of `build`, begun before it by no search
    /// (`Box.buildSearchIndexAhead`), then, when cards changed since the build's snapshot
    /// (`changedSince`), in the whole index for the cards it did not read.
    init(pattern: SearchPattern, only: Level?, joining build: IndexBuild, changedSince: Bool, criteria: Criteria, limit: Int?,
         cards: Int?, budget: Int = SearchScan.defaultBudget) {
        self.init(pattern: pattern, only: only, building: build, criteria: criteria, limit: limit, cards: cards, budget: budget)
        joined = changedSince
    }

    /// Finds the matching cards in the index as the search began, sorted by level then id.
    /// Needs no box. Does nothing once done.
    /// - Throws: `searchCut` when the pattern spent the search's budget.
    /// While the index is being built, finds the cards of the next piece once the build has
    /// read it (waiting for it), when the cards found before are all read. When the build gave
    /// up (its box closing), the search needs a box again, to be begun again there (`resume`).
    public mutating func find() throws(BoxError) {
        if let (index, criteria) = snapshot {
            snapshot = nil
            try find(in: index, slots: nil, criteria: criteria)
            return
        }
        while read.isEmpty, position >= hits.count, remaining != 0, cardsLeft != 0, let (build, criteria, pieces) = building {
            // The piece's cards found and not yet ordered come before the next piece's.
            if unordered != nil {
                moreHits()
                continue
            }
            // Counted here, off the turn: a walk of every card's level.
            let left = pieces ?? only.map { build.pieces(of: $0) } ?? 0..<Int.max
            guard let number = left.first else {
                building = nil
                if joined { lastPass = criteria }
                break
            }
            if fromFile, !build.hasRead(piece: number) {
                // The build is still asking the stamps of the cards before this piece's: the
                // file's matches are read now, before its pieces (docs/daemon.md, "Indexes built
                // off the turn").
                fromFile = false
                building = (build, criteria, left)
                if let saved = build.savedFile() { findInFile(saved, of: build, from: number, criteria: criteria) }
                continue
            }
            building = (build, criteria, left.dropFirst())
            switch build.takePiece(number) {
            case .read(_, let index, let slots):
                try find(in: index, slots: slots, criteria: criteria)
            case .done(let unread):
                building = nil
                if joined {
                    // Those cards, and every other changed since the snapshot, are in the
                    // index as installed.
                    lastPass = criteria
                    hits = []
                    position = 0
                    continue
                }
                // The cards the build did not find where its snapshot had them: moved while it
                // read (or damaged). A streamed search reads each card it found as it is now,
                // and these were in the store as the search began too: each is read now, at its
                // level now, and its lines, if it has any, come last.
                let fields = criteria.fields.reduce(UInt8(0)) { $0 | Hit.bit($1) }
                hits = unread.sorted().filter { !readIDs.contains($0) }.map { Hit(level: .new, id: $0, fieldBits: fields, matched: false) }
                position = 0
                lateFilter = criteria.filter
            case .stopped:
                building = nil
                leftBuild = (build, criteria)
                hits = []
                unordered = nil
                position = 0
            }
        }
    }

    /// The cards whose text and tags in the index's file (`saved`, as `build` read it) match,
    /// of the levels of the pieces not yet taken (from piece `number` on), in place of `hits`,
    /// sorted by their level in the build's snapshot, then id: a search sent as the daemon starts
    /// gives a card the file holds without waiting for the build to ask the stamps of every card
    /// before it (docs/performance.md, "The first search after a start, answered from the file
    /// first"). The file may be older than a card, and what it says is never given: each card is
    /// read now, as any found (`Box.readCards`), every field of the search looked in and its
    /// filter asked again (`Hit.matched` false), so that a card edited since to no longer match
    /// gives no line. The pieces then pass by the cards read here (`readIDs`); a card edited
    /// since to match, whose stamp no longer holds, is read by the build and found in its piece,
    /// after these (R13). Its steps are its own, a quarter of the search's at most: a pattern
    /// that would take more leaves the cards to the pieces, where it is cut as before.
    private mutating func findInFile(_ saved: SearchIndex, of build: IndexBuild, from number: Int, criteria: Criteria) {
        guard let first = build.level(ofPiece: number) else { return }
        let snapshot = build.cards
        let (searchID, searchFront, searchBack) = (criteria.fields.contains(.id), criteria.fields.contains(.front),
                                                    criteria.fields.contains(.back))
        let fields = criteria.fields.reduce(UInt8(0)) { $0 | Hit.bit($1) }
        var found: [Found] = []
        var budget = allowance / 4
        saved.forEach { parts in
            guard budget >= 0, criteria.filter.isEmpty || criteria.filter.selects(parts.eachTag),
                  let level = snapshot.level(ofBytes: parts.id), level.rawValue >= first.rawValue, only == nil || level == only else { return }
            if !readIDs.isEmpty, readIDs.contains(String(decoding: parts.id, as: UTF8.self)) { return }
            guard searchID && pattern.matches(folded: parts.foldedID, budget: &budget) == true
                    || searchFront && pattern.matches(folded: parts.front, budget: &budget) == true
                    || searchBack && pattern.matches(folded: parts.back, budget: &budget) == true else { return }
            found.append(Found(number: parts.number, level: UInt8(level.rawValue), fieldBits: fields))
        }
        guard budget >= 0 else { return }
        found.sort { a, b in a.level != b.level ? a.level < b.level : saved.idPrecedes(a.number, b.number) }
        hits = found.compactMap { card in
            Level(rawValue: Int(card.level)).map { Hit(level: $0, id: saved.id(at: card.number), fieldBits: fields, matched: false) }
        }
        position = 0
        lateFilter = criteria.filter
    }

    /// The matching cards among `index`'s slots `slots` (all when nil), in place of `hits`: sorted
    /// by level then id as far as the search asks (`moreHits`), the rest kept in `unordered`.
    private mutating func find(in index: SearchIndex, slots: Range<Int>?, criteria: Criteria) throws(BoxError) {
        let onlyLevel = only.map { UInt8($0.rawValue) }
        let (searchID, searchFront, searchBack) = (criteria.fields.contains(.id), criteria.fields.contains(.front),
                                                    criteria.fields.contains(.back))
        var found: [Found] = []
        var budget = self.budget
        index.forEach(in: slots) { parts in
            guard budget >= 0 else { return }
            guard onlyLevel == nil || parts.slot.level == onlyLevel else { return }
            guard criteria.filter.isEmpty || criteria.filter.selects(parts.eachTag) else { return }
            // A search begun again after a reload skips the cards it gave before matching them, so
            // that they do not spend its budget twice.
            if !readIDs.isEmpty, readIDs.contains(String(decoding: parts.id, as: UTF8.self)) { return }
            var hits: UInt8 = 0
            if searchID, pattern.matches(folded: parts.foldedID, budget: &budget) == true { hits |= Hit.bit(.id) }
            if searchFront, pattern.matches(folded: parts.front, budget: &budget) == true { hits |= Hit.bit(.front) }
            if searchBack, pattern.matches(folded: parts.back, budget: &budget) == true { hits |= Hit.bit(.back) }
            guard hits != 0, budget >= 0, Level(rawValue: Int(parts.slot.level)) != nil else { return }
            found.append(Found(number: parts.number, level: parts.slot.level, fieldBits: hits))
        }
        self.budget = budget
        if budget < 0 { throw cut() }
        hits = []
        position = 0
        unordered = (index, found)
        moreHits()
    }

    /// Puts the next cards of `unordered` in order after `hits`: as many as the search may still
    /// give (`cards`, or `limit`, a card giving at least one line), all when it has no limit.
    /// A search of a word every card holds orders a page's cards, not 100,000: a pass that keeps
    /// the least ones (a heap) and a sort of those, where a sort of every match was most of the
    /// search (docs/performance.md, "A page of a search every card matches"). The order is the
    /// same: level (as `Level` orders), then id (as `String` does, `SearchIndex.idPrecedes`).
    /// More are ordered when cards read no longer match (edited by hand since, R13), until none is left.
    mutating func moreHits() {
        guard let (index, found) = unordered else { return }
        unordered = nil
        func precedes(_ a: Found, _ b: Found) -> Bool {
            a.level != b.level ? a.level < b.level : index.idPrecedes(a.number, b.number)
        }
        let wanted = max(1, min(cardsLeft ?? Int.max, remaining ?? Int.max))
        var taken: [Found]
        if wanted >= found.count {
            taken = found.sorted(by: precedes)
        } else {
            // The `wanted` least, the greatest of them first (a heap), then the rest in order of
            // slots, left unordered.
            var heap: [Int] = []
            heap.reserveCapacity(wanted)
            for place in found.indices {
                if heap.count < wanted {
                    heap.append(place)
                    var child = heap.count - 1
                    while child > 0, precedes(found[heap[(child - 1) / 2]], found[heap[child]]) {
                        heap.swapAt(child, (child - 1) / 2)
                        child = (child - 1) / 2
                    }
                } else if precedes(found[place], found[heap[0]]) {
                    heap[0] = place
                    var parent = 0
                    while true {
                        var greatest = parent
                        for child in 2 * parent + 1...2 * parent + 2
                        where child < heap.count && precedes(found[heap[greatest]], found[heap[child]]) {
                            greatest = child
                        }
                        if greatest == parent { break }
                        heap.swapAt(parent, greatest)
                        parent = greatest
                    }
                }
            }
            var chosen = [Bool](repeating: false, count: found.count)
            for place in heap { chosen[place] = true }
            taken = heap.map { found[$0] }.sorted(by: precedes)
            unordered = (index, zip(found, chosen).compactMap { $1 ? nil : $0 })
        }
        for card in taken {
            guard let level = Level(rawValue: Int(card.level)) else { continue }
            hits.append(Hit(level: level, id: index.id(at: card.number), fieldBits: card.fieldBits))
        }
    }

    /// How many cards the next batch may read, of `count`: no more than the cards still to give.
    func batchSize(upTo count: Int) -> Int {
        min(count, cardsLeft ?? count)
    }

    /// The next `count` cards to read, in order.
    mutating func nextHits(upTo count: Int) -> ArraySlice<Hit> {
        if position >= hits.count { moreHits() }
        let end = min(hits.count, position + count)
        defer { position = end }
        return hits[position..<end]
    }

    /// Keeps a batch's cards for `matchRead`.
    mutating func keep(_ cards: [ReadCard]) {
        read = cards
        if building != nil { for card in cards { readIDs.insert(card.hit.id) } }
    }

    /// Begins again, in a box that replaced the one whose build gave up under the search
    /// (`leftBuild`): finding in `build`'s pieces as it reads them, or in `index` when that box
    /// has one, and leaving out the cards read already. The limit and the budget go on.
    mutating func resume(building build: IndexBuild) {
        guard let (_, criteria) = leftBuild else { return }
        leftBuild = nil
        building = (build, criteria, only == nil ? 0..<Int.max : nil)
        self.build = build
    }

    /// `resume(building:)` in a box that has its index; or, for a search that joined a build
    /// now done (`awaitsIndex`), the index installed: the cards not read yet are found in it.
    mutating func resume(index: SearchIndex) {
        if let criteria = lastPass {
            lastPass = nil
            snapshot = (index, criteria)
            build = nil
            return
        }
        guard let (_, criteria) = leftBuild else { return }
        leftBuild = nil
        snapshot = (index, criteria)
        build = nil
    }

    /// The matching lines of the cards the last `Box.readCards` read, in order. Needs no box.
    /// - Throws: `searchCut` when the pattern spent the search's budget.
    public mutating func matchRead() throws(BoxError) -> [SearchMatch] {
        defer { read = [] }
        var matches: [SearchMatch] = []
        for card in read {
            if !card.hit.matched, !lateFilter.selects(card.card.tags) { continue }
            var counted = false
            for field in card.hit.fields {
                for line in try matchingLines(of: card.card, field: field, matched: card.hit.matched) {
                    // A card counts against `cards` by its first line: one read that no longer
                    // matches (edited by hand since, R13) does not.
                    if !counted {
                        guard Self.take(from: &cardsLeft) else { return matches }
                        counted = true
                    }
                    guard Self.take(from: &remaining) else { return matches }
                    let side: Side? = switch field { case .id: nil; case .front: card.card.front; case .back: card.card.back }
                    matches.append(SearchMatch(id: card.hit.id, level: card.level, field: field, line: SearchScan.cut(line),
                                               mediaType: side?.mediaType))
                }
            }
        }
        return matches
    }

    /// The lines of a card's field that hold the pattern. A regular expression may match across
    /// lines only: the side's first line stands for it then, while the whole side still matches.
    private mutating func matchingLines(of card: Card, field: SearchMatch.Field, matched: Bool) throws(BoxError) -> [String] {
        let text: String
        switch field {
        case .id:
            if matched { return [card.id] }
            return try matches(card.id) ? [card.id] : []
        case .front: text = card.front.text ?? ""
        case .back: text = card.back.text ?? ""
        }
        let all = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
        var lines: [String] = []
        for line in all where try matches(line) { lines.append(line) }
        if lines.isEmpty, let first = all.first, try matches(text) { return [first] }
        return lines
    }

    /// Whether `line` holds a match, its steps taken from the budget.
    private mutating func matches(_ line: String) throws(BoxError) -> Bool {
        guard let matched = pattern.matches(line: line, budget: &budget) else { throw cut() }
        return matched
    }

    /// Counts a line (`remaining`) or a card (`cardsLeft`) given against its limit; false when
    /// the limit was already reached.
    private static func take(from left: inout Int?) -> Bool {
        guard let count = left else { return true }
        guard count > 0 else { return false }
        left = count - 1
        return true
    }

    private func cut() -> BoxError {
        .searchCut(pattern: pattern.text, reason: "the regular expression took more than \(allowance) steps "
                   + "of the engine (about a second of work) before the search was done; make it narrower: fewer "
                   + "alternatives or repetitions, or a word every match must hold")
    }

    /// A line longer than this is cut (at a character boundary) in the reply.
    static let maxLineBytes = 1024

    /// A line cut to `maxLineBytes`, at a character boundary.
    static func cut(_ line: String) -> String {
        guard line.utf8.count > maxLineBytes else { return line }
        var out = ""
        for character in line {
            if out.utf8.count + character.utf8.count > maxLineBytes - 3 { break }
            out.append(character)
        }
        return out + "…"
    }
}
