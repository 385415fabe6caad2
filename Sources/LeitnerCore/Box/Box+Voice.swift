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

    /// Queues the speech of `cards` (added or edited), to be made off the turn.
    public func speakAhead(_ cards: [Card]) {
        guard let voice else { return }
        let jobs = cards.flatMap { voice.jobs(front: $0.front, back: $0.back, tags: $0.tags) }
        if !jobs.isEmpty { voice.enqueue(.jobs(jobs)) }
    }

    /// Queues the speech of the text sides of the cards of a batch (`AddMany`: an import, the
    /// AnkiConnect door) that joined the open test (R8), as sent, each in the voice of its own
    /// tags (R33), which the batch carries. The batch's other cards are spoken when a test that
    /// holds them opens (`speakAhead(queue:of:)`), as docs/rules.md R33 says: speaking them all
    /// at once made an import of 100,000 cards 200,000 runs of the program and gigabytes of
    /// speech, most of it for cards weeks from a test.
    public func speakAhead(batch cards: [NewCard], added: [BatchOutcome.Added]) {
        guard let voice else { return }
        func side(_ asset: Asset) -> Side {
            let mediaType = MediaType.of(fileName: asset.name)
            return Side(path: "", mediaType: mediaType,
                        text: MediaType.isText(mediaType) ? String(decoding: asset.content, as: UTF8.self) : nil)
        }
        // A reverse card speaks its card's two texts: either one in the test asks for them.
        let jobs = added.filter { inOpenTest($0.id) || $0.reverse.map(inOpenTest) == true }.flatMap {
            let card = cards[$0.index]
            return voice.jobs(front: side(card.front), back: side(card.back), tags: card.tags)
        }
        if !jobs.isEmpty { voice.enqueue(.jobs(jobs)) }
    }

    /// Queues the speech of the cards of a batch of cloze notes (`AddClozes`) that joined the
    /// open test, as `speakAhead(batch:added:)` does, each side as its card shows it (R30), made
    /// from the note as sent.
    public func speakAhead(notes: [NewNote], added: [BatchOutcome.Added]) {
        guard let voice else { return }
        var parsed: [Int: ClozeText] = [:]
        var jobs: [VoiceMaker.Job] = []
        for card in added where inOpenTest(card.id) {
            // A cloze card of the batch is NOTE.cN (`Store.defaultClozeID`).
            guard let suffix = card.id.split(separator: ".").last, suffix.first == "c", let number = Int(suffix.dropFirst()) else { continue }
            let note = notes[card.index]
            let text = parsed[card.index] ?? ClozeText(parsing: note.text)
            parsed[card.index] = text
            let front = Side(path: "", mediaType: "text/markdown", text: text.question(hiding: number, markdown: true))
            let back = Side(path: "", mediaType: "text/markdown", text: text.answer(revealing: number, markdown: true, extra: note.extra))
            jobs += voice.jobs(front: front, back: back, tags: note.tags)
        }
        if !jobs.isEmpty { voice.enqueue(.jobs(jobs)) }
    }

    /// Whether card `id` is in the queue of the open test (R8), which a card added to its levels joins.
    private func inOpenTest(_ id: String) -> Bool { tracksMembership && daily.contains(id) }

    /// Queues the speech of a test just opened: its cards are read off the turn, through
    /// descriptors of the maker's own (`CardReader`), as an index build reads them. The queue is
    /// entry numbers in `index`; their ids are made on the maker's thread, not on the box's turn
    /// (at 100,000 cards, a string per card doubled `Prepare`).
    func speakAhead(queue: [UInt32], of index: CardIndex) {
        guard let voice, !queue.isEmpty, let reader = try? CardReader(store: store) else { return }
        voice.enqueue(.cards(reader, index, queue))
    }

    /// Why no speech is made, when a program is configured and missing or failing.
    public var voiceProblem: String? { voice?.problem }

    /// The voice's work so far (`leitner-bench`): made, found made, and whether it is busy.
    public var voiceProgress: (made: Int, found: Int, busy: Bool)? { voice?.progress }
}
