import Glibc
import LeitnerSystem
import LeitnerTestSupport
import Testing
@testable import LeitnerClient

/// Packages made here as Anki makes them (docs/anki-import.md), with the same programs the
/// import reads them with: sqlite3 writes the collection, zstd compresses, bsdtar zips.
@Suite struct AnkiPackageTests {
    static func shell(_ command: String) {
        let result = system(command)
        precondition(result == 0, "'\(command)' failed")
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    /// Protobuf bytes of a string field.
    static func field(_ number: UInt8, _ text: String) -> [UInt8] { [number << 3 | 2, UInt8(text.utf8.count)] + Array(text.utf8) }

    @Test func latestFormatNotetypesAsProtobufAndMediaCompressed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let template = Self.hex(Self.field(1, "{{Front}}") + Self.field(2, "{{FrontSide}}<hr id=answer>{{Back}}"))
        let notetype = Self.hex([0x08, 0x00, 0x48, 0x02])  // kind normal, original_stock_kind 2
        dir.write("schema.sql", """
            CREATE TABLE col (id integer primary key, ver integer, models text, decks text);
            INSERT INTO col VALUES (1, 18, '', '');
            CREATE TABLE notetypes (id integer primary key, name text, config blob);
            INSERT INTO notetypes VALUES (7, 'Basic (and reversed card)', x'\(notetype)');
            CREATE TABLE fields (ntid integer, ord integer, name text, config blob);
            INSERT INTO fields VALUES (7, 1, 'Back', x''), (7, 0, 'Front', x'');
            CREATE TABLE templates (ntid integer, ord integer, name text, config blob);
            INSERT INTO templates VALUES (7, 0, 'Card 1', x'\(template)');
            CREATE TABLE decks (id integer primary key, name text);
            INSERT INTO decks VALUES (5, 'Sprachen' || char(31) || 'Deutsch');
            CREATE TABLE notes (id integer primary key, guid text, mid integer, tags text, flds text);
            INSERT INTO notes VALUES (11, 'g,1', 7, ' de::tiere noun ', 'Hund' || char(31) || 'dog <img src="cat.png">');
            CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, type integer, queue integer,
              due integer, ivl integer);
            INSERT INTO cards VALUES (21, 11, 5, 0, 2, 2, 300, 17);
            """)
        // Two media, each with its size (field 2) as Anki writes them: read in place from the
        // zip, which stores them as they are (`-0`), and decompressed by one zstd.
        let media = Self.hex([0x0A, 0x0B] + Self.field(1, "cat.png") + [0x10, 0x03] + [0x0A, 0x0B] + Self.field(1, "dog.mp3") + [0x10, 0x04])
        let d = dir.path
        Self.shell("""
            cd \(d) && mkdir pkg && sqlite3 col.db < schema.sql && zstd -q col.db -o pkg/collection.anki21b \
            && printf '\\010\\003' > pkg/meta && printf 'please update' > pkg/collection.anki2 \
            && printf '%s' '\(media)' | xxd -r -p | zstd -q -o pkg/media && printf 'PNG' | zstd -q -o pkg/0 \
            && printf 'ID3!' | zstd -q -o pkg/1 \
            && cd pkg && bsdtar --format zip --options zip:compression=store -cf ../deck.apkg meta collection.anki2 collection.anki21b media 0 1
            """)
        let package = try AnkiPackage("\(d)/deck.apkg")
        defer { package.close() }
        #expect(package.version == 3)
        #expect(package.media == ["cat.png": "0", "dog.mp3": "1"])
        #expect(package.hasMedium("cat.png") && !package.hasMedium("cow.png"))
        #expect(package.mediumSize("dog.mp3") == 4)
        #expect(try package.media(["cat.png", "dog.mp3", "cat.png"]) == ["cat.png": Array("PNG".utf8), "dog.mp3": Array("ID3!".utf8)])
        // Neither was written out: the unpacked directory holds the rest of the package only.
        #expect(!FileSystem.exists("\(package.directory)/0", in: nil) && !FileSystem.exists("\(package.directory)/1", in: nil))
        #expect(throws: AnkiPackageError.damaged("it lacks 'cow.png', which its media list names")) { try package.media(["cow.png"]) }
        let collection = try AnkiCollection(path: package.collectionPath)
        let basic = try #require(collection.notetypes[7])
        #expect(basic.fields == ["Front", "Back"] && !basic.isCloze && basic.stockKind == 2)
        #expect(basic.templates == [.init(name: "Card 1", question: "{{Front}}", answer: "{{FrontSide}}<hr id=answer>{{Back}}")])
        #expect(collection.decks == [5: "Sprachen::Deutsch"])
        #expect(collection.notes[11]?.tags == ["de::tiere", "noun"])
        #expect(collection.notes[11]?.fields == ["Hund", "dog <img src=\"cat.png\">"])
        #expect(collection.cards.map(\.interval) == [17])
        let directory = package.directory
        package.close()
        #expect(!FileSystem.exists(directory, in: nil))
    }

    @Test func legacyFormatNotetypesAsJSONAndMediaPlain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("schema.sql", """
            CREATE TABLE col (id integer primary key, ver integer, models text, decks text);
            INSERT INTO col VALUES (1, 11, '{"9": {"id": 9, "name": "Cloze", "type": 1, "flds": [{"name": "Text", "ord": 0}],
              "tmpls": [{"name": "Cloze", "ord": 0, "qfmt": "{{cloze:Text}}", "afmt": "{{cloze:Text}}"}]}}',
              '{"1": {"id": 1, "name": "Default"}}');
            CREATE TABLE notes (id integer primary key, guid text, mid integer, tags text, flds text);
            INSERT INTO notes VALUES (3, 'q', 9, '', '{{c1::Katze}}');
            CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, type integer, queue integer,
              due integer, ivl integer);
            INSERT INTO cards VALUES (4, 3, 1, 0, 0, -1, 2, 0);
            """)
        dir.write("pkg/media", #"{"0": "miau.mp3"}"#)
        dir.write("pkg/0", "ID3")
        let d = dir.path
        Self.shell("""
            cd \(d) && sqlite3 pkg/collection.anki21 < schema.sql && printf '\\010\\002' > pkg/meta \
            && cd pkg && bsdtar --format zip -cf ../deck.apkg meta collection.anki21 media 0
            """)
        let package = try AnkiPackage("\(d)/deck.apkg")
        defer { package.close() }
        #expect(package.version == 2)
        #expect(try package.media(["miau.mp3"]) == ["miau.mp3": Array("ID3".utf8)])
        let collection = try AnkiCollection(path: package.collectionPath)
        #expect(collection.notetypes[9]?.isCloze == true)
        #expect(collection.notetypes[9]?.templates.first?.question == "{{cloze:Text}}")
        #expect(collection.decks == [1: "Default"])
        #expect(collection.cards.first?.queue == -1)
    }

    /// A medium read in place is checked as `unzip` checks what it writes: its CRC-32, and in the
    /// latest format the sizes its media list gives.
    @Test func aMediumReadInPlaceIsChecked() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("schema.sql", "CREATE TABLE col (id integer primary key, ver integer, models text, decks text);")
        let wrongSize = Self.hex([0x0A, 0x0B] + Self.field(1, "cat.png") + [0x10, 0x05])
        let d = dir.path
        Self.shell("""
            cd \(d) && mkdir old new && sqlite3 old/collection.anki21 < schema.sql && printf '\\010\\002' > old/meta \
            && printf '{"0": "miau.mp3"}' > old/media && printf 'ID3X' > old/0 \
            && cd old && bsdtar --format zip --options zip:compression=store -cf ../old.apkg meta collection.anki21 media 0 && cd .. \
            && python3 -c "import sys; p='old.apkg'; b=open(p,'rb').read(); open(p,'wb').write(b.replace(b'ID3X', b'ID3Y'))" \
            && sqlite3 col.db < schema.sql && zstd -q col.db -o new/collection.anki21b && printf '\\010\\003' > new/meta \
            && printf '%s' '\(wrongSize)' | xxd -r -p | zstd -q -o new/media && printf 'PNG' | zstd -q -o new/0 \
            && cd new && bsdtar --format zip --options zip:compression=store -cf ../new.apkg meta collection.anki21b media 0
            """)
        let old = try AnkiPackage("\(d)/old.apkg")
        defer { old.close() }
        #expect(throws: AnkiPackageError.damaged("its entry '0' is cut short or does not match its checksum")) { try old.media(["miau.mp3"]) }
        let new = try AnkiPackage("\(d)/new.apkg")
        defer { new.close() }
        #expect(throws: AnkiPackageError.damaged("its media list's sizes do not add up to its media (3 bytes)")) { try new.media(["cat.png"]) }
    }

    /// A zip whose directory gives a medium a size past the end of the file: the read refuses it
    /// rather than allocate what the directory says (up to 4 GiB) before reading.
    @Test func aMediumWhoseSizeRunsPastTheFileIsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("schema.sql", "CREATE TABLE col (id integer primary key, ver integer, models text, decks text);")
        let media = Self.hex([0x0A, 0x0B] + Self.field(1, "cat.png") + [0x10, 0x03])
        let d = dir.path
        // The central directory's sizes of entry '0' (offsets 20 and 24 of its header) set to
        // 1 GiB, the local header left as it is.
        Self.shell("""
            cd \(d) && mkdir new && sqlite3 col.db < schema.sql && zstd -q col.db -o new/collection.anki21b \
            && printf '\\010\\003' > new/meta && printf '%s' '\(media)' | xxd -r -p | zstd -q -o new/media \
            && printf 'PNG' | zstd -q -o new/0 \
            && cd new && bsdtar --format zip --options zip:compression=store -cf ../new.apkg meta collection.anki21b media 0 && cd .. \
            && python3 -c "
            import struct; p='new.apkg'; b=bytearray(open(p,'rb').read()); at=b.find(b'PK\\x01\\x02')
            while b[at+46:at+46+struct.unpack_from('<H',b,at+28)[0]] != b'0': at=b.find(b'PK\\x01\\x02',at+4)
            struct.pack_into('<II',b,at+20,1<<30,1<<30); open(p,'wb').write(b)"
            """)
        let package = try AnkiPackage("\(d)/new.apkg")
        defer { package.close() }
        #expect(throws: AnkiPackageError.damaged("its entry '0' runs past the end of the file")) { try package.media(["cat.png"]) }
    }

    @Test func damagedPackagesAreRefusedWithTheirReason() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("pkg/meta", "\u{08}\u{09}")
        Self.shell("cd \(dir.path)/pkg && bsdtar --format zip -cf ../deck.apkg meta")
        #expect(throws: AnkiPackageError.damaged("its 'meta' file says version 9, which this leitnerctl does not know")) {
            try AnkiPackage("\(dir.path)/deck.apkg")
        }
        dir.write("not-a-zip.apkg", "hello")
        #expect(throws: AnkiPackageError.damaged("it is not a zip file, as every .apkg and .colpkg is")) {
            try AnkiPackage("\(dir.path)/not-a-zip.apkg")
        }
        // A download that stopped: the zip's start without its directory at the end.
        Self.shell("head -c 40 \(dir.path)/deck.apkg > \(dir.path)/cut.apkg")
        #expect(throws: AnkiPackageError.damaged("it is cut short (its zip directory is missing): a download that stopped? Fetch it again")) {
            try AnkiPackage("\(dir.path)/cut.apkg")
        }
    }
}
