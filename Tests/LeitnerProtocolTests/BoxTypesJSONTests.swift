import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol

@Suite struct BoxTypesJSONTests {
    let side = Side(path: "/s/2/hola/front.md", mediaType: "text/markdown", text: "# hola")
    let image = Side(path: "/s/2/hola/back.png", mediaType: "image/png", text: nil)
    var card: Card { Card(id: "hola", level: .two, front: side, back: image) }
    let test = TestSummary(date: LogicalDate("2026-11-21")!, position: 70, levels: [.two, .one],
                           state: .open, remaining: 3, passed: 1, failed: 2, repeating: 1)

    func failure<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> JSONFieldError? {
        do {
            let value = try body()
            Issue.record("decoded as \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error as? JSONFieldError
        }
    }

    @Test func cardFieldNamesAreTheInterfaces() {
        #expect(card.json.jsonText == #"{"back":{"mediaType":"image/png","path":"/s/2/hola/back.png","text":null},"#
                + ##""front":{"mediaType":"text/markdown","path":"/s/2/hola/front.md","text":"# hola"},"id":"hola","level":"2"}"##)
    }

    @Test func cardRoundTrips() throws {
        #expect(try Card(json: card.json) == card)
        let finished = Card(id: "x", level: .finished, front: image, back: side)
        #expect(try Card(json: JSONValue(parsing: finished.json.serialized)) == finished)
        // A nullable member may be absent as well as null.
        #expect(try Side(json: ["path": "/p", "mediaType": "image/png"]) == Side(path: "/p", mediaType: "image/png", text: nil))
    }

    /// A listing writes each card's JSON itself (`Card.serialize`), not through `json`: the
    /// same bytes, whatever members the card has.
    @Test func aCardWritesTheBytesOfItsJSON() {
        let picture = Medium(name: "katze.png", mediaType: "image/png", path: "/s/media/katze.png")
        let odd = Side(path: "/s/1/\u{00e9}t\u{00e9}/front.md", mediaType: "text/markdown",
                       text: "line \"one\"\n\ttab \\ and \u{1} control, \u{65e5}\u{672c}", media: [picture, picture])
        let cards = [
            card,
            Card(id: "x", level: .finished, front: image, back: side),
            Card(id: "tagged", level: .seven, front: side, back: side, tags: ["ja", "ja:kana"]),
            Card(id: "hola-reverse", level: .new, front: image, back: side, tags: ["es"], reverseOf: "hola"),
            Card(id: "note-c2", level: .suspended, front: odd, back: side, clozeOf: ClozeOf(note: "note", number: 2)),
            Card(id: "everything", level: .one, front: odd, back: odd, tags: ["t"], reverseOf: "r",
                 clozeOf: ClozeOf(note: "n", number: 12)),
        ]
        for card in cards {
            var written: [UInt8] = []
            card.serialize(into: &written)
            #expect(String(decoding: written, as: UTF8.self) == card.json.jsonText)
        }
    }

    @Test func cardErrorsNameTheField() {
        var json = card.json.objectValue!
        json["level"] = "8"
        #expect(failure { try Card(json: .object(json)) } == JSONFieldError(field: "card.level", reason: "'8' is not a level"))
        json["level"] = "2"
        json["front"] = ["path": "/p", "mediaType": 3]
        #expect(failure { try Card(json: .object(json)) }?.description == "field 'card.front.mediaType' is not a string but an integer")
        json.removeValue(forKey: "back")
        #expect(failure { try Card(json: .object(json), field: "cards.4") }
                == JSONFieldError(field: "cards.4.front.mediaType", reason: "is not a string but an integer"))
        #expect(failure { try Card(json: ["id": "x"]) } == JSONFieldError(field: "card.level", reason: "is missing"))
        #expect(failure { try Card(json: ["id": nil]) } == JSONFieldError(field: "card.id", reason: "is null"))
        #expect(JSONFieldError(field: "front.data", reason: "is not base64").parameter == "front")
        #expect(JSONFieldError(field: "id", reason: "is missing").parameter == "id")
        #expect(failure { try Card(json: [1]) } == JSONFieldError(field: "card", reason: "is not an object but an array"))
    }

    @Test func testSummaryRoundTrips() throws {
        #expect(test.json == ["date": "2026-11-21", "position": 70, "levels": ["2", "1"], "state": "open",
                              "remaining": 3, "passed": 1, "failed": 2, "repeating": 1])
        #expect(try TestSummary(json: test.json) == test)
        // From an older daemon, without repeating: none known.
        var older = test.json.objectValue!
        older["repeating"] = nil
        #expect(try TestSummary(json: .object(older)).repeating == 0)
        var json = test.json.objectValue!
        json["levels"] = ["2", "0"]
        #expect(failure { try TestSummary(json: .object(json)) } == JSONFieldError(field: "test.levels.1", reason: "is not a level"))
        json["levels"] = ["1"]
        json["state"] = "closed"
        #expect(failure { try TestSummary(json: .object(json)) }?.field == "test.state")
        json["state"] = "empty"
        json["date"] = "2026-02-30"
        #expect(failure { try TestSummary(json: .object(json)) } == JSONFieldError(field: "test.date", reason: "'2026-02-30' is not a date (YYYY-MM-DD)"))
    }

    /// docs/protocol.md: `counts` has every level, zero included, keyed "1" … "7" and "finished".
    @Test func statusHasEveryLevel() throws {
        let status = BoxStatus(today: LogicalDate("2026-11-21")!, test: test, counts: [.one: 4, .finished: 2], problems: 1)
        let counts = status.json["counts"]?.objectValue
        #expect(counts == ["1": 4, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "finished": 2])
        #expect(status.json["today"] == "2026-11-21")
        #expect(status.json["problems"] == 1)
        let decoded = try BoxStatus(json: status.json)
        #expect(decoded.counts[.two] == 0 && decoded.counts[.one] == 4 && decoded.counts[.finished] == 2)
        #expect(decoded.test == test && decoded.problems == 1 && decoded.today == status.today)
        var json = status.json.objectValue!
        json["problems"] = nil
        #expect(try BoxStatus(json: .object(json)).problems == 0)
        json["counts"] = ["1": 1]
        #expect(failure { try BoxStatus(json: .object(json)) } == JSONFieldError(field: "counts.2", reason: "is missing"))
    }

    @Test func calendarDayRoundTrips() throws {
        let day = CalendarDay(date: LogicalDate("2026-11-22")!, state: .upcoming, levels: [.three, .one], cards: 9)
        #expect(day.json == ["date": "2026-11-22", "state": "upcoming", "levels": ["3", "1"], "cards": 9, "arrivals": .null])
        #expect(try CalendarDay(json: day.json) == day)
        // R23's arrivals, and a reply without them (an older daemon): not known.
        var arriving = day
        arriving.arrivals = 20
        #expect(try CalendarDay(json: arriving.json) == arriving)
        var older = day.json.objectValue!
        older["arrivals"] = nil
        #expect(try CalendarDay(json: .object(older)).arrivals == nil)
        let days: JSONValue = ["days": [day.json, ["date": "2026-11-23", "state": "later", "levels": [], "cards": 0]]]
        #expect(failure { try JSONFields(days, path: "").objects("days") { (value, field) throws(JSONFieldError) in try CalendarDay(json: value, field: field) } }
                == JSONFieldError(field: "days.1.state", reason: "'later' is not a day state"))
    }

    @Test func logEntryRoundTrips() throws {
        let time = try #require(DayClock.parseRFC3339("2026-11-21T20:30:05+01:00"))
        let entry = LogEntry(time: time, event: .grade, id: "hola", from: .two, to: .three, correct: true, answerMs: 1234)
        let json = entry.json
        #expect(json["event"] == "grade")
        #expect(json["from"] == "2" && json["to"] == "3" && json["correct"] == true && json["answerMs"] == 1234)
        #expect(json["date"] == .null && json["origin"] == .null)
        #expect(DayClock.parseRFC3339(try #require(json["time"]?.stringValue)) == time)
        #expect(try LogEntry(json: json) == entry)
        let skip = LogEntry(time: time, event: .skip, date: LogicalDate("2026-11-20"), origin: "hand")
        #expect(try LogEntry(json: skip.json) == skip)
        #expect(skip.json["date"] == "2026-11-20")
        // The device (docs/sync.md) travels in the JSON, though not in the log line.
        #expect(json["device"] == .null)
        let synced = LogEntry(time: time, event: .complete, date: LogicalDate("2026-11-21"), device: "laptop")
        #expect(synced.json["device"] == "laptop")
        #expect(try LogEntry(json: synced.json) == synced)
        var noDevice = synced.json.objectValue!
        noDevice["device"] = nil
        #expect(try LogEntry(json: .object(noDevice)).device == nil)
        var bad = json.objectValue!
        bad["time"] = "yesterday"
        #expect(failure { try LogEntry(json: .object(bad)) } == JSONFieldError(field: "entry.time", reason: "'yesterday' is not an RFC 3339 time"))
        bad["time"] = json["time"]
        bad["answerMs"] = 1.5
        #expect(failure { try LogEntry(json: .object(bad)) }?.field == "entry.answerMs")
    }

    @Test func problemRoundTrips() throws {
        let problem = StoreProblem(kind: .loosePair, path: "/s/1/x-front.txt", reason: "no 'x-back.*'", advice: "add the back")
        #expect(problem.json == ["kind": "loosePair", "path": "/s/1/x-front.txt", "reason": "no 'x-back.*'", "advice": "add the back"])
        #expect(try StoreProblem(json: problem.json) == problem)
        #expect(failure { try StoreProblem(json: ["kind": "broken", "path": "", "reason": "", "advice": ""]) }?.field == "problem.kind")
    }

    @Test func assetsTravelAsTextOrBase64() throws {
        let text = Asset(name: "front.md", text: "¿qué?")
        #expect(text.json == ["name": "front.md", "text": "¿qué?", "data": nil])
        #expect(try Asset(json: text.json) == text)
        let png = Asset(name: "back.png", content: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        #expect(png.json == ["name": "back.png", "text": nil, "data": "iVBORwD/"])
        #expect(try Asset(json: png.json) == png)
        // Text that is not UTF-8 goes as data.
        let latin1 = Asset(name: "front.txt", content: [0x63, 0xE9])
        #expect(latin1.json["data"] == "Y+k=")
        #expect(try Asset(json: latin1.json) == latin1)
        #expect(failure { try Asset(json: ["name": "a.png", "data": "***"]) } == JSONFieldError(field: "asset.data", reason: "is not base64"))
        #expect(failure { try Asset(json: ["name": "a.txt"]) }?.field == "asset.text")
        #expect(failure { try Asset(json: ["name": "a.txt", "text": "x", "data": "eA=="], field: "front") }?.field == "front.data")
    }

    /// An `AddMany` batch sends a medium several cards hold with the same bytes once, and each
    /// card read back holds it, its bytes shared; a name another card gives other bytes goes
    /// with its own card, and a shared name the batch lacks is refused.
    @Test func aMediumSeveralCardsHoldTravelsOnceABatch() throws {
        let front = Asset(name: "front.md", text: "a"), back = Asset(name: "back.md", text: "b")
        let cat = Asset(name: "cat.png", content: [0x89, 1]), dog = Asset(name: "dog.png", content: [0x89, 2])
        let otherCat = Asset(name: "cat.png", content: [0x89, 3])
        let cards = [NewCard(front: front, back: back, id: "a", media: [cat]), NewCard(front: front, back: back, id: "b", media: [cat, dog]),
                     NewCard(front: front, back: back, id: "c", media: [otherCat])]
        let batch = NewCard.batchJSON(cards)
        #expect(batch.media == [cat.json])
        #expect(batch.cards.map { $0["sharedMedia"] } == [["cat.png"], ["cat.png"], nil])
        #expect(batch.cards.map { $0["media"] } == [nil, [dog.json], [otherCat.json]])
        let media = ["cat.png": try Asset(json: batch.media[0])]
        let read = try batch.cards.map { try NewCard(json: $0, batchMedia: media) }
        #expect(read.map { Set($0.media.map(\.name)) } == [["cat.png"], ["cat.png", "dog.png"], ["cat.png"]])
        #expect(read[0].media == [cat] && read[2].media == [otherCat] && read[1].media.contains(dog))
        #expect(failure { try NewCard(json: batch.cards[0], field: "cards.0") }?.field == "cards.0.sharedMedia")
    }

    @Test func boxErrorsMapBothWays() {
        for error in BoxErrorTableTests.everyError where error.varlinkName.hasPrefix(BoxInterface.name + ".") {
            let reply = error.varlinkReply
            #expect(reply.error == error.varlinkName)
            #expect(BoxError(VarlinkCallError(name: reply.error!, parameters: reply.parameters)) == error)
        }
        #expect(BoxError.invalidCardId(id: "-a", reason: "r").varlinkParameters == ["id": "-a", "reason": "r"])
        #expect(BoxError.testComplete.varlinkReply.json.jsonText == #"{"error":"io.leitner.Box.TestComplete","parameters":{}}"#)
        #expect(BoxError.invalidParameter(name: "from", reason: "not a date").varlinkReply == .invalidParameter("from"))
        #expect(BoxError(VarlinkCallError(name: "io.leitner.Box.NoSuchCard")) == nil)
        #expect(BoxError(VarlinkCallError(name: "com.example.Other", parameters: ["id": "a"])) == nil)
    }

    @Test func base64() {
        let cases: [(String, String)] = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                                         ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] // RFC 4648 §10
        for (plain, encoded) in cases {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        let all = (0...255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(all)) == all)
        #expect(Base64.decode("Zg") == Array("f".utf8)) // padding may be left out
        #expect(Base64.decode("Zh==") == nil)          // bits past the end must be zero
        #expect(Base64.decode("Z") == nil)
        #expect(Base64.decode("Zm9v\n") == nil)
        #expect(Base64.decode("Zm=v") == nil)
    }
}
