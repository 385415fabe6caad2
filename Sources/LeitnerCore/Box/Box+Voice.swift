import LeitnerSystem

/// The voice (docs/rules.md R33): speech made ahead of time by `VoiceMaker`, off the turn, and
/// `Speech`, which answers from the cache at once and never waits for the program.
extension Box {
    /// What `Speech` finds for a side.
    public enum Speech: Sendable, Equatable {
        /// Made: the WAV file's absolute path.
        case ready(path: String)
        /// Asked for and not made yet: it is being made (or queued), off the review's path.
        case pending
        /// None will be: why (no program, a side that is not text, the program failing).
        case unavailable(String)
    }

    /// The speech of a side of card `id`: ready, pending (and then queued, so that a missing
    /// file is made again), or why there is none. Never waits for the program.
    /// - Throws: `noSuchCard`; `storeFailure` for a damaged card.
    public func speech(id: String, side: SideName) throws(BoxError) -> Speech {
        let card = try store.card(id, withText: true)
        guard let voice else {
            return .unavailable("no voice: [Voice] Program= is empty, or espeak-ng is not installed")
        }
        guard let job = voice.job(card.side(side), voice: voice.settings.voice(tags: card.tags)) else {
            return .unavailable("the \(side.rawValue) has no text to speak")
        }
        if let path = voice.cache.ready(job.name) { return .ready(path: path) }
        if let problem = voice.problem { return .unavailable(problem) }
        voice.enqueue(.jobs([job]))
        return .pending
    }

    /// The bytes of a speech file `speech` answered ready, for a client that cannot read the
    /// store (the web): at most `maxAssetReply`.
    /// - Throws: `storeFailure` naming the file when it cannot be read or is too large.
    public func speechBytes(_ path: String) throws(BoxError) -> [UInt8] {
        do {
            let bytes = try FileSystem.readFile(atPath: path, limit: options.maxAssetReply + 1)
            if bytes.count > options.maxAssetReply {
                throw BoxError.storeFailure(path: path, reason: "the speech is larger than a reply can carry (\(options.maxAssetReply) bytes)")
            }
            return bytes
        } catch let error as BoxError {
            throw error
        } catch {
            throw .failing(.read, path, error)
        }
    }

    /// Queues the speech of `cards` (added or edited), to be made off the turn: each text and
    /// voice once, though a card and its reverse (R28) or a note's cloze cards share them.
    public func speakAhead(_ cards: [Card]) {
        guard let voice else { return }
        // Asked for here: not again as cards that joined the test (`speakJoined`).
        daily.forgetJoined(cards.map(\.id))
        var named = Set<String>()
        let jobs = cards.flatMap { voice.jobs(front: $0.front, back: $0.back, tags: $0.tags) }.filter { named.insert($0.name).inserted }
        if !jobs.isEmpty { voice.enqueue(.jobs(jobs)) }
    }

    /// Queues the speech of the cards that joined the open test (R8) since the last call and
    /// are still in it, however they came in: an import's or AnkiConnect's batch, a day's new
    /// cards admitted into a test carried over (R23), a move, an unsuspend, a hand change (R12,
    /// R13). The daemon calls it as each turn ends. The cards are read off the turn, as a test's
    /// opening reads its own (`speakAhead(queue:of:)`); a batch's cards that join no test are
    /// spoken when one that holds them opens, or when they join the open one (docs/rules.md
    /// R33): speaking every imported card at once made an import of 100,000 cards 200,000 runs
    /// of the program, most of them for cards weeks from a test.
    public func speakJoined() {
        let joined = daily.takeJoined()
        guard voice != nil, !joined.isEmpty else { return }
        let index = store.cardLevels
        let entries = joined.compactMap { daily.contains($0) ? index.entryNumber(of: $0) : nil }
        speakAhead(queue: entries, of: index, opening: false)
    }

    /// Queues the speech of the cards `queue` (entry numbers in `index`): they are read off the
    /// turn, through descriptors of the maker's own (`CardReader`), as an index build reads them;
    /// their ids are made on the maker's thread, not on the box's turn (at 100,000 cards, a
    /// string per card doubled `Prepare`). `opening`: the queue of a test just opened, after
    /// whose speech the cache drops what no test asked for lately (`VoiceCache.prune`).
    func speakAhead(queue: [UInt32], of index: CardIndex, opening: Bool) {
        guard let voice, !queue.isEmpty, let reader = try? CardReader(store: store) else { return }
        voice.enqueue(.cards(reader, index, queue, opening: opening))
    }

    /// Why no speech is made, when a program is configured and missing or failing.
    public var voiceProblem: String? { voice?.problem }

    /// The voice's work so far (`leitner-bench`): made, found made, and whether it is busy.
    public var voiceProgress: (made: Int, found: Int, busy: Bool)? { voice?.progress }
}
