import LeitnerCore
import LeitnerVarlink
/// The interface `io.leitner.Box` as data: the IDL text `GetInterfaceDescription` returns.
///
/// It is the interface of docs/protocol.md with the additions listed in that document's table
/// "Additions to the contract's interface" (Varlink allows added methods, types, errors and
/// nullable fields; the table says why each was added).
/// A copy is kept at `docs/io.leitner.Box.varlink`, checked equal by a test and parsed there by
/// the Python `varlink` package.
public enum BoxInterface {
    /// The interface name.
    public static let name = "io.leitner.Box"

    /// `ConnectionClosed (reason)`: the daemon closed an idle connection (to make room for
    /// another, or stopping) without reading what was sent on it after its last reply, so a
    /// call answered with it can be sent again on a new connection (docs/protocol.md).
    public static let connectionClosed = "io.leitner.Box.ConnectionClosed"

    /// `TooManyConnections (limit)`: the daemon refused a connection, every one of its
    /// `MaxConnections=` being busy (docs/protocol.md).
    public static let tooManyConnections = "io.leitner.Box.TooManyConnections"

    /// The IDL text read: what the daemon checks each call's parameters against.
    public static let declaration = VarlinkInterfaceDescription.builtIn(description, name: name)

    /// The IDL text of `io.leitner.Box`, with its doc comments.
    public static let description = """
        # A Leitner box: cards in levels 1 to 7 and finished, reviewed on a cycle of tests.
        interface io.leitner.Box

        # One side of a card.
        type Side (
          # Absolute path of the asset file.
          path: string,
          # Media type from the file name: text/plain, text/markdown, image/png, audio/mpeg, ...
          mediaType: string,
          # The content of a text asset (up to 64 KiB), null for other media.
          text: ?string,
          # The pictures and sounds a Markdown side shows, in the order of first use:
          # those of its references, ![text](NAME) and [sound:NAME], whose file is in the card's
          # directory (a cloze card's: its note's). Sent with the text, and only when not empty.
          # A reference not listed is shown as it is written.
          media: ?[]Medium
        )

        # A picture or a sound beside a side. name: the file's name in its directory,
        # as the side writes it, and what ReadMedium takes; path: its absolute path, for a
        # client on this machine.
        type Medium (name: string, mediaType: string, path: string)

        # level: 1 to 7 or finished, or a place beside the levels whose cards are in no test:
        # new (waiting to be admitted into level 1) or suspended. Wherever a level is named
        # (Add, Move, List, Search), new and suspended may be named too.
        # tags: the card's tags, from its tags file; absent when it has none. A reverse card has
        # tags of its own, in its own directory.
        # reverseOf: for a reverse card, the id of the card whose sides it shows swapped (its
        # front is that card's back, the sides' paths are that card's files); absent for any
        # other card.
        # clozeOf, cloze: for a cloze card, the note in notes/ whose text it shows and the
        # deletion number it asks (its front hides every deletion of that number, its back
        # reveals them, then the note's extra; the sides' paths are the note's text file);
        # absent for any other card.
        type Card (id: string, level: string, front: Side, back: Side, tags: ?[]string, reverseOf: ?string, clozeOf: ?string, cloze: ?int)

        # A side of a new card: text, or base64 data; name gives the extension (front.md, back.png).
        type Asset (name: string, text: ?string, data: ?string)

        type Test (
          # The logical date this test is open on (today), or was completed on.
          date: string,
          # The test's cycle position, not reduced modulo the table length (p, or p - 1 once completed).
          position: int,
          # The levels of its table entry, in the table's order (e.g. ["2", "1"]).
          levels: []string,
          state: (open, completed, empty),
          # Cards in the queue.
          remaining: int,
          # Distinct cards with a correct grade in this test (not undone).
          passed: int,
          # Distinct cards with a wrong grade in this test (not undone).
          failed: int,
          # Cards in the queue answered wrong in this test: they come back until answered right.
          repeating: ?int,
          # Cards in transit in the store: a sync tool is moving them; while one of the queue is,
          # the test waits for it (no card offered at its turn, no completion). Absent: none.
          syncing: ?int
        )

        # One calendar day: history for past days, a forecast for future ones.
        type Day (
          date: string,
          # none: before the box's first logical date (the day its store was created).
          state: (completed, skipped, missed, today, upcoming, none),
          levels: []string,
          # Past days: distinct cards graded that day. Today and upcoming days: cards in its levels
          # now. Upcoming day k after today shows the entry T[q + k], q the position of today's test.
          cards: int,
          # New cards admitted into level 1 that day (NewPerDay=): past days and today from this
          # device's log, with today's admissions still to come; upcoming days a forecast,
          # NewPerDay= a day until new is empty.
          arrivals: ?int
        )

        type LogEntry (
          time: string,
          event: (add, grade, undo, move, delete, skip, complete, edit, rename, practice),
          id: ?string,
          from: ?string,
          to: ?string,
          correct: ?bool,
          answerMs: ?int,
          # For skip and complete: the logical date entered in the day record.
          date: ?string,
          # How the change came about: null for a client's request, "hand" for a change made in
          # the store by hand, "adopt" for an adopted loose pair, "sync" for settling a card a
          # sync left in two levels or deleted on another device.
          origin: ?string,
          # For rename: the card's new id (id is the old one).
          renamedTo: ?string,
          # The device whose review log holds the event (docs/sync.md); null when the log
          # is no device's.
          device: ?string
        )

        # Something in the store the daemon does not use as it is: a damaged card, half of a
        # loose pair, a card in two levels, a link out of the store, an entry that is no card,
        # damaged state in .leitner/, or what a sync tool left: a conflict copy, conflict markers,
        # or a card it is still moving (in transit: no damage, it goes by itself); or a line of a
        # card's tags file that is no tag (badTag, path FILE:LINE: ignored, the card is sound);
        # or a side's picture or sound whose name is a path or whose file is missing
        # (badMedium, path the side's file: shown as text, the card is sound).
        type Problem (
          kind: (damagedCard, loosePair, duplicateCard, outsideLink, strayEntry, damagedState, syncConflict, badTag, badMedium),
          # Absolute path of the entry.
          path: string,
          # What is wrong.
          reason: string,
          # What the user can do about it.
          advice: string
        )

        # One day of the statistics: its state, as in Day, and the work done on it.
        type StatsDay (
          date: string,
          state: (completed, skipped, missed, today, upcoming, none),
          # Grades not undone that day, repeats of a failed card included.
          reviews: int,
          # Time spent answering: the sum of those grades' answer times, in milliseconds.
          answerMs: int
        )

        # One of the next tests, if each day's test is done: the cards expected in its queue, the
        # cards of its levels moving on with each level's retention. arrivals: the new cards
        # expected into level 1 that day (NewPerDay= a day until new is empty), counted in cards
        # when level 1 is in the test.
        type ForecastTest (date: string, position: int, levels: []string, cards: int, arrivals: ?int)

        # Of the cards shown in a test at this level, those answered right the first time they were
        # shown in that test: in the recent window, and over the whole log. A share of fewer than
        # 20 answers is uncertain.
        type Retention (level: string, recentAnswers: int, recentRight: int, answers: int, right: int)

        # Retention of one level over one week; week is its Monday.
        type WeekRetention (week: string, level: string, answers: int, right: int)

        # Completed days in a row; a skipped day neither counts nor breaks a run, a missed day ends
        # it, today ends nothing while its test is open. longestEnd: the last day of the longest.
        type Streaks (current: int, longest: int, longestEnd: ?string)

        # A card answered wrong often, and the level it is in now: failures counts the wrong
        # answers in the leech window (Stats' leeches) or since the card last entered 1 to 7
        # from new or suspended (Stats' leechCards).
        type Leech (id: string, failures: int, level: string)

        # A line a search found: the card, where in it (its id, its front or its back), and the
        # line as it is in the card (cut at 1 KiB). mediaType: the side's (as Side's), so that a
        # client can show a Markdown line without its marks; null for the id.
        type SearchMatch (id: string, level: string, field: (id, front, back), line: string,
          mediaType: ?string)

        # A tag and the number of cards tagged with it exactly (ja:kana counts for ja:kana only).
        type TagCount (tag: string, cards: int)

        # A card of an AddMany batch: Add's parameters for one card.
        # tags: the card's tags; media: the pictures and sounds its Markdown sides name,
        # each a file of its directory by its name; sharedMedia: names of AddMany's media that are
        # files of its directory too (a picture many cards show, sent once). All are written with
        # the card, in the same change; a reverse added beside it gets a copy of the tags.
        # reverseLevel: the level or place of that reverse (AddMany with reverse true), when it is
        # not the card's.
        type NewCard (front: Asset, back: Asset, id: ?string, level: ?string, typeAnswer: ?bool, tags: ?[]string, media: ?[]Asset,
          sharedMedia: ?[]string, reverseLevel: ?string)

        # A cloze note of an AddClozes batch: AddCloze's parameters for one note. cardLevels: the
        # level or place of the card of a deletion number, by that number ("2": "3"), when it is
        # not level.
        type NewNote (text: string, id: ?string, level: ?string, extra: ?string, tags: ?[]string, typeAnswer: ?bool,
          media: ?[]Asset, cardLevels: ?[string]string)

        # A card of the batch that was added; index is its place in the batch, from 0.
        # reverse: the id of its reverse card, added beside it (AddMany with reverse true).
        type AddedCard (index: int, id: string, level: string, reverse: ?string)

        # A card of the batch already in the box, not added again: a card has the id it asks for,
        # or (allowDuplicate false) the same text front; or an earlier card of the batch does.
        # id names that card.
        type PresentCard (index: int, id: string)

        # A card of the batch that Add would refuse: error is the error's qualified name
        # (io.leitner.Box.InvalidCardId, ...), parameters its parameters, reason the why in words.
        type RefusedCard (index: int, error: string, parameters: object, reason: string)

        # The next test with cards: today's while it has cards to go (or new cards its opening
        # admits), else the first later day whose levels hold cards now or receive new ones by
        # then. cards: those in its levels now, and the new cards admitted into 1 by then when 1
        # is one of its levels; arrivals: those new ones, of cards.
        type NextTest (date: string, levels: []string, cards: int, arrivals: int)

        # problems: how many problems the daemon knows of (Doctor lists them all).
        # clockBehind: the time of the last change in the review log, when the clock reads more
        # than a second earlier than it (it was set back); null otherwise.
        # counts: cards per level, and in the places new and suspended.
        # arrivals: the new cards the next admissions bring into level 1 (NewPerDay=), on
        # arrivalDate (today until the day's test opens); both null when no card is in new.
        # leeches: the cards answered wrong LeechAfter= times since they last entered 1 to 7
        # from new or suspended (0 when LeechAfter=0).
        # next: the next test with cards; null when no test within a year has one.
        # week: today's week, Monday to Sunday, as Calendar gives those days (absent from an
        # older daemon): a client showing today and its week asks once.
        method Status() -> (today: string, test: Test, counts: [string]int, problems: ?int, clockBehind: ?string,
          arrivals: ?int, arrivalDate: ?string, leeches: ?int, next: ?NextTest, week: ?[]Day)
        # Opens the day's test. The first call of a logical date (or the first Next or Grade) admits
        # that day's new cards first (NewPerDay=), each a move from new to 1 logged as admit.
        method Prepare() -> (test: Test)
        # With a filter: the first queued card in one of levels that tags and notTags
        # select (see List); the others keep their places, and the test completes only when its
        # whole queue is empty. outside: the queued cards the filter leaves out.
        method Next(tags: ?[]string, notTags: ?[]string, levels: ?[]string) -> (card: ?Card, test: Test, outside: ?int)
        method Grade(id: string, correct: bool, answerMs: ?int) -> (card: Card, test: Test)
        method Undo() -> (card: Card, test: Test)
        # What browser device keeps to review offline: the open test's cards still to
        # ask, in its order, with their text (at most 300); onFail (first or previous) for its
        # own moves; dayEnds, when the test's learning day ends (RFC 3339); sequence, the
        # greatest number of its grades taken. Opens nothing. Its first call makes device a
        # browser device of the box (.leitner/devices/DEVICE/browser), which then may send
        # kept grades; a device another machine writes is refused (KeptGradeRefused).
        method KeepTest(device: string) -> (test: Test, cards: []Card, onFail: string, dayEnds: string, sequence: int)
        # A grade a browser kept while it could not reach the box, sent when it can.
        # device: the browser's device id (its log is .leitner/devices/DEVICE/log), one that
        # kept a test (KeepTest); sequence: the grade's number on it, 1 or more, greater than
        # the numbers it sent before: a grade whose number was taken already changes nothing
        # (taken: false). time: when it was given (RFC 3339), no earlier than the device's first
        # KeepTest and the opening day of the test position names, no later than now, each
        # give or take 10 minutes of clock skew (KeptGradeRefused otherwise); level: the level
        # the browser saw the card in; position: the cycle position of the test the page kept.
        # The card is settled with every device's changes: it moves only when this grade is
        # the newest event about it. level in the reply: where the card is now, null when it
        # no longer exists (the grade is logged all the same).
        method TakeKeptGrade(device: string, sequence: int, id: string, correct: bool, time: string,
          answerMs: ?int, level: string, position: ?int) -> (taken: bool, level: ?string, test: Test)
        # allowDuplicate: false refuses a text front that another card already has (DuplicateFront);
        # null or true adds the card anyway. reverse: true adds its reverse card too, ID.rev beside
        # it in the same level or place, in the same change (both or neither); the reply's
        # reverse is it. Without a level both wait in new, or both go into 1 when the day's
        # admissions take the two. typeAnswer: true writes the card's type-answer file (and its
        # reverse's), so that its answer is typed in the review.
        # media: pictures and sounds put in the card's directory beside its sides, in the same
        # change, for a Markdown side to name: each name one file name (no path, not hidden),
        # a picture's or a sound's, not front.* or back.*, each once (InvalidAsset otherwise).
        # tags: the card's tags, written with it (and its reverse) in the same change, as Tag
        # would add them (InvalidTag otherwise, nothing added).
        method Add(front: Asset, back: Asset, id: ?string, level: ?string, allowDuplicate: ?bool, reverse: ?bool,
          typeAnswer: ?bool, media: ?[]Asset, tags: ?[]string) -> (card: Card, reverse: ?Card)
        # Adds many cards in one durable change, each as Add would: when the reply arrives, every
        # added card is on disk and in its level. Cards already present or refused are reported
        # and the others added, so the same batch sent twice adds nothing the second time. Fails
        # as a whole (StoreFailure, nothing added) only when the store cannot take the batch.
        # reverse: true gives each added card its reverse card, ID.rev, beside it. media: the
        # pictures and sounds the cards' sharedMedia name, each sent once for the batch.
        method AddMany(cards: []NewCard, allowDuplicate: ?bool, reverse: ?bool, media: ?[]Asset) -> (added: []AddedCard, present: []PresentCard,
          refused: []RefusedCard)
        method Move(id: string, level: string) -> (card: Card)
        # Moves the cards to suspended, out of every test; a card already there stays. Every id
        # is checked first: an unknown or damaged one changes nothing.
        method Suspend(ids: []string) -> (cards: []Card)
        # Moves suspended cards back to the level each was suspended from (the review log says),
        # else to level 1. Every id is checked first: one not suspended (NotSuspended) changes
        # nothing.
        method Unsuspend(ids: []string) -> (cards: []Card)
        # Deletes the card and its reverse cards with it, unless keepReverses is true: then they
        # stay, dangling (damaged, reported by Doctor). reverses: the card's reverse cards,
        # deleted or kept; absent when it had none. An id no card has but a note in notes/ has
        # deletes the note and its cards so (reverses: its cards). A cloze card whose number its
        # note still holds is refused (StoreFailure, saying why): edit the note instead.
        method Delete(id: string, keepReverses: ?bool) -> (reverses: ?[]string)
        # Replaces the front, the back or both (null keeps a side), keeping the card's level, its
        # place in the test and its history; an extension may change (front.txt to front.md).
        # changed is false when the sides were already so: nothing is written or logged then.
        # A reverse card's front and back are written to the card it reverses, swapped.
        method Edit(id: string, front: ?Asset, back: ?Asset) -> (card: Card, changed: bool)
        # Gives a card a new id, keeping its level, its place in the test and its history. Its
        # reverse cards' reverse-of is rewritten to the new id in the same change. An id no card
        # has but a note in notes/ has renames the note: its cards keep their ids and their
        # cloze-of names newId, in the same change; card is the note's first card.
        method Rename(id: string, newId: string) -> (card: Card)
        # Adds a reverse card of the card id: reverseId (default id.rev) holding reverse-of, in
        # level (default the card's own level or place), with a copy of the card's tags, or tags
        # when given. typeAnswer: true writes its own type-answer file. A reverse card cannot be
        # reversed (ReverseOfReverse).
        method AddReverse(id: string, reverseId: ?string, level: ?string, tags: ?[]string, typeAnswer: ?bool) -> (card: Card)
        # Adds a cloze note: text with deletions {{c1::answer}} or {{c1::answer::hint}} (1 to
        # 99) put into notes/ as id (default from its text), with extra (shown under every
        # answer) and tags, and one card id.cN per number, each holding cloze-of and the tags,
        # in level (default where a new card goes). InvalidParameter when the text has no
        # deletion or the note exists. typeAnswer: true writes the note's type-answer file (each
        # card asks for its deletion typed); media: pictures and sounds put in the note's directory
        # beside its text, written with it, each name as Add takes it (InvalidAsset otherwise).
        method AddCloze(text: string, id: ?string, level: ?string, extra: ?string, tags: ?[]string,
          typeAnswer: ?bool, media: ?[]Asset) -> (cards: []Card)
        # Adds many cloze notes in one durable change, each as AddCloze would, its cards each in
        # the level its cardLevels names, else in level, else where a new card goes: when the reply
        # arrives, every note added and all its cards are on disk and in place. added: each card
        # made, index its note's; present: a note whose id is in notes/ or earlier in the batch
        # (id names it), not added, so the same batch sent twice adds nothing the second time;
        # refused: a note AddCloze would refuse (CardExists when a card's id is taken). Fails as a
        # whole (StoreFailure, nothing added) only when the store cannot take the batch.
        method AddClozes(notes: []NewNote) -> (added: []AddedCard, present: []PresentCard, refused: []RefusedCard)
        method Show(id: string) -> (card: Card)
        # A card's position in a listing's order: by level (1 to 7, finished, new, suspended),
        # then by id as strings compare. Where a page of List begins or ends.
        type ListPosition (level: string, id: string)

        # Cards of one level, or of all; text is filled only when withText is true. tags: only
        # cards with one of these tags or a tag below one (ja selects ja and ja:kana); notTags:
        # none of the cards with one of these or below. A page: after, only the cards after this
        # position (whether a card is there or not); before, only those before it, the nearest
        # first (read backwards); limit, at most this many (1 or more). after and before are not
        # given together.
        method List(level: ?string, withText: ?bool, tags: ?[]string, notTags: ?[]string,
          after: ?ListPosition, before: ?ListPosition, limit: ?int) -> (cards: []Card)
        # The bytes of one asset, base64, for clients that cannot read the store themselves.
        method ReadAsset(id: string, side: (front, back)) -> (name: string, data: string)
        # The bytes of one medium of a card's sides, base64, by its name as Show lists it:
        # InvalidAsset when no side of the card lists that name.
        method ReadMedium(id: string, name: string) -> (name: string, mediaType: string, data: string)
        # The speech of a side's text (the voice), made ahead of time; never waits for it.
        # path: the WAV file, when it is made (data: its bytes, base64, with withData true);
        # pending: it is being made, ask again later; problem: why there is none (no program,
        # a side without text, the program missing or failing).
        method Speech(id: string, side: (front, back), withData: ?bool) -> (path: ?string, data: ?string, pending: bool,
          problem: ?string)
        # Pictures and sounds put beside a card's sides, in one durable change logged as an
        # edit: each name one file name of a picture or a sound, not a side's (else InvalidAsset,
        # nothing written); a name taken by other bytes, or given twice, becomes NAME-2.EXT, and
        # one holding the same bytes is kept. names: each medium's name in the directory, in order.
        method AddMedia(id: string, media: []Asset) -> (card: Card, names: []string)
        method Calendar(from: string, to: string) -> (days: []Day)
        method Log(since: ?string, limit: ?int) -> (entries: []LogEntry)
        # The lines of the cards whose id, front or back (text and Markdown) holds pattern,
        # ignoring case, sorted by level then id; regex: pattern is a grep -E style regular expression.
        # fields: what to search (default all three); level: only that level; limit: the most
        # lines, at least 1 (default all); cards: the lines of that many cards at most, at least 1
        # (default all): no card past them is read (a page of results). Streamed: called with
        # more, the lines come in parts as the cards are read.
        # tags, notTags: as for List.
        method Search(pattern: string, regex: ?bool, fields: ?[]string, level: ?string, limit: ?int,
          cards: ?int, tags: ?[]string, notTags: ?[]string) -> (matches: []SearchMatch)
        # Every problem in the store, found by a full scan; changes nothing.
        method Doctor() -> (problems: []Problem)
        # Stops the daemon as SIGTERM does: this reply first, then the other requests in flight,
        # then exit 0. Only the daemon's own user and root may call it
        # (org.varlink.service.PermissionDenied).
        method Stop() -> ()
        # The figures of the review log and the schedule. days: the recent windows of retention
        # and work and the leech window (default 30, 90 for leeches), 1 to 3660; leeches: how
        # many of the hardest cards (default 10), 0 to 1000. heatmap: 52 weeks, Monday to Sunday,
        # the last one this week. retentionWeeks: the heatmap's weeks. work: the last days days.
        # weekReviews, weekAnswerMs: this week, Monday to today. damaged, loose: damaged cards and
        # loose files, not in counts. tags, notTags (as for List): counts, forecast and leeches of
        # the cards selected only. practiceAnswers, practiceWrong, practiceMs: practice answers in
        # the recent window, apart from the test's figures. leechCards: the leeches, the cards
        # answered wrong leechAfter (LeechAfter=) times since they last entered 1 to 7 from new or
        # suspended, most first (empty when LeechAfter=0), beside leeches, the hardest cards.
        method Stats(days: ?int, leeches: ?int, tags: ?[]string, notTags: ?[]string) -> (today: string, days: int, leechDays: int,
          counts: [string]int, damaged: int, loose: int, forecast: []ForecastTest,
          heatmap: []StatsDay, retention: []Retention, retentionWeeks: []WeekRetention,
          work: []StatsDay, weekReviews: int, weekAnswerMs: int, streaks: Streaks,
          leeches: []Leech, practiceAnswers: ?int, practiceWrong: ?int, practiceMs: ?int,
          leechCards: ?[]Leech, leechAfter: ?int)
        # Adds tags to a card; one it has is kept once. Written to its tags file, logged as
        # an edit. A tag that breaks the rules is InvalidTag, and nothing is changed.
        method Tag(id: string, tags: []string) -> (card: Card)
        # Takes tags off a card (ja takes off ja, not ja:kana); one it lacks is no error.
        method Untag(id: string, tags: []string) -> (card: Card)
        # Every tag of the box with its card count, by tag; of the cards tags and notTags select
        # (as for List) when given. Streamed: called with more, in parts.
        method Tags(tags: ?[]string, notTags: ?[]string) -> (tags: []TagCount)
        # The cards of a practice session, with their text: those in one of levels, that
        # tags and notTags select (as for List), whose id, front or back holds pattern (as for
        # Search), answered wrong on one of the last wrongDays days (1 to 3660). By level then id,
        # or shuffled; at most limit (1 to 1000, default 100). Streamed: called with more, in parts.
        method PracticeCards(tags: ?[]string, notTags: ?[]string, levels: ?[]string, pattern: ?string,
          regex: ?bool, wrongDays: ?int, limit: ?int, shuffle: ?bool) -> (cards: []Card)
        # Records a practice answer: the card moves nowhere and the test is untouched; one
        # practice line is logged in the review log.
        method Practice(id: string, correct: bool, answerMs: ?int) -> (card: Card)
        # Keeps one side of a card's sync conflict: keep is "mine" (the sides as they are),
        # "theirs" (the sync tool's copy of each side), or the file name of one copy; for git's
        # conflict markers in a text side, "mine" or "theirs" of each hunk. kept: the files now in
        # the sides' places; removed: the copies removed.
        method ResolveConflict(id: string, keep: string) -> (card: Card, kept: []string, removed: []string)

        error NoSuchCard (id: string)
        error InvalidCardId (id: string, reason: string)
        error InvalidLevel (level: string)
        error CardExists (id: string)
        error NotInTest (id: string)
        # Unsuspend of a card that is not suspended; level is where it is.
        error NotSuspended (id: string, level: string)
        error TestComplete ()
        error NothingToUndo ()
        error InvalidAsset (name: string, reason: string)
        # The store failed: path names the file, reason says what failed and why, for people. A
        # failed system call also gives its errno (Linux's number: 28 no space, 30 read-only) and
        # operation (open, create, read, write, append, fsync, rename, remove, list, stat, lock,
        # watch, resolve, mkdir), so that a client decides from the number, not the words.
        error StoreFailure (path: string, reason: string, errno: ?int, operation: ?string)
        # A card with the same text front exists (Add with allowDuplicate false); id names it.
        error DuplicateFront (id: string)
        # A search pattern that is empty, or a regular expression that is refused; reason says why.
        error InvalidPattern (pattern: string, reason: string)
        # A Search whose regular expression spent its work budget (about a second of the engine's
        # work) before it was done; reason says so and what to narrow. Lines already sent stand.
        error SearchCut (pattern: string, reason: string)
        # The card has no sync conflict, or keep names no side of it; reason says which.
        error CannotResolve (id: string, reason: string)
        # AddReverse of a reverse card: it would show reverseOf, the card it reverses, as it is.
        error ReverseOfReverse (id: string, reverseOf: string)
        # The reply would be longer than the daemon's message size limit (MaxMessageSize=). A
        # reply that grows with the box (List, Log, Calendar, Search, Doctor) is sent in parts when called
        # with "more": true; without it, one too large fails with this error, which says so.
        # With "more", one item alone too large for a message ends the replies with it.
        error ReplyTooLarge (reason: string)
        # The daemon closed the connection without reading anything sent after its last reply:
        # it was the longest idle when a new connection needed its place, or the daemon is
        # stopping. Sent in place of a reply: a call answered with it was not carried out, and
        # can be sent again on a new connection.
        error ConnectionClosed (reason: string)
        # The daemon serves as many connections as it may, none of them idle: it refuses this
        # one and closes it. Sent in place of a reply; nothing was carried out.
        error TooManyConnections (limit: int)
        # A tag that breaks the rules of tags: those of a card id, with ':' between parts.
        error InvalidTag (tag: string, reason: string)
        # KeepTest or TakeKeptGrade refused what device sent: it is no browser device of the
        # box (this machine's or another machine's, or one that never kept a test), or a kept
        # grade's time is one it cannot have been given at. reason says which, for people.
        error KeptGradeRefused (device: string, reason: string)

        """
}
