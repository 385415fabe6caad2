import LeitnerCore
/// The interface `io.leitner.Box` as data: the IDL text `GetInterfaceDescription` returns.
///
/// It is the interface of docs/protocol.md, with these additions (Varlink allows added methods and nullable fields;
/// `docs/protocol.md` says why): `Add(allowDuplicate)`, error `DuplicateFront`,
/// `Status.problems`, `LogEntry.date` and `LogEntry.origin`, type `Problem` and method `Doctor`,
/// errors `ConnectionClosed` and `TooManyConnections` (connections the daemon closes or refuses).
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
          text: ?string
        )

        type Card (id: string, level: string, front: Side, back: Side)

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
          failed: int
        )

        # One calendar day: history for past days, a forecast for future ones.
        type Day (
          date: string,
          # none: before the box's first logical date (the day its store was created).
          state: (completed, skipped, missed, today, upcoming, none),
          levels: []string,
          # Past days: distinct cards graded that day. Today and upcoming days: cards in its levels
          # now. Upcoming day k after today shows the entry T[q + k], q the position of today's test.
          cards: int
        )

        type LogEntry (
          time: string,
          event: (add, grade, undo, move, delete, skip, complete),
          id: ?string,
          from: ?string,
          to: ?string,
          correct: ?bool,
          answerMs: ?int,
          # For skip and complete: the logical date entered in the day record.
          date: ?string,
          # How the change came about: null for a client's request, "hand" for a change made in
          # the store by hand, "adopt" for an adopted loose pair.
          origin: ?string
        )

        # Something in the store the daemon does not use as it is: a damaged card, half of a
        # loose pair, a card in two levels, a link out of the store, an entry that is no card.
        type Problem (
          kind: (damagedCard, loosePair, duplicateCard, outsideLink, strayEntry),
          # Absolute path of the entry.
          path: string,
          # What is wrong.
          reason: string,
          # What the user can do about it.
          advice: string
        )

        # problems: how many problems the daemon knows of (Doctor lists them all).
        method Status() -> (today: string, test: Test, counts: [string]int, problems: ?int)
        method Prepare() -> (test: Test)
        method Next() -> (card: ?Card, test: Test)
        method Grade(id: string, correct: bool, answerMs: ?int) -> (card: Card, test: Test)
        method Undo() -> (card: Card, test: Test)
        # allowDuplicate: false refuses a text front that another card already has (DuplicateFront);
        # null or true adds the card anyway.
        method Add(front: Asset, back: Asset, id: ?string, level: ?string, allowDuplicate: ?bool) -> (card: Card)
        method Move(id: string, level: string) -> (card: Card)
        method Delete(id: string) -> ()
        method Show(id: string) -> (card: Card)
        # Cards of one level, or of all; text is filled only when withText is true.
        method List(level: ?string, withText: ?bool) -> (cards: []Card)
        # The bytes of one asset, base64, for clients that cannot read the store themselves.
        method ReadAsset(id: string, side: (front, back)) -> (name: string, data: string)
        method Calendar(from: string, to: string) -> (days: []Day)
        method Log(since: ?string, limit: ?int) -> (entries: []LogEntry)
        # Every problem in the store, found by a full scan; changes nothing.
        method Doctor() -> (problems: []Problem)

        error NoSuchCard (id: string)
        error InvalidCardId (id: string, reason: string)
        error InvalidLevel (level: string)
        error CardExists (id: string)
        error NotInTest (id: string)
        error TestComplete ()
        error NothingToUndo ()
        error InvalidAsset (name: string, reason: string)
        error StoreFailure (path: string, reason: string)
        # A card with the same text front exists (Add with allowDuplicate false); id names it.
        error DuplicateFront (id: string)
        # The reply would be longer than the daemon's message size limit (MaxMessageSize=). A
        # reply that grows with the box (List, Log, Calendar, Doctor) is sent in parts when called
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

        """
}
