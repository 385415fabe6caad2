import Testing
import LeitnerSystem
@testable import LeitnerCore
import LeitnerTestSupport

/// The voice's cache (docs/rules.md R33): its files' names, and what pruning removes, by a clock
/// the test sets.
@Suite struct VoiceCacheTests {
    static let wav: [UInt8] = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVE".utf8) + [UInt8](repeating: 1, count: 64)

    @Test func aNameChangesWithTheTextTheVoiceAndTheProgram() {
        let name = VoiceCache.fileName(text: "der Hund", voice: "de", program: "espeak-ng")
        #expect(name == VoiceCache.fileName(text: "der Hund", voice: "de", program: "espeak-ng"))
        #expect(name.count == 36 && name.hasSuffix(".wav") && name.dropLast(4).allSatisfy(\.isHexDigit))
        let others = [VoiceCache.fileName(text: "der Hund ", voice: "de", program: "espeak-ng"),
                      VoiceCache.fileName(text: "der Hund", voice: "en", program: "espeak-ng"),
                      VoiceCache.fileName(text: "der Hund", voice: "de", program: "piper --model de.onnx"),
                      VoiceCache.fileName(text: "der Hund", voice: "", program: "espeak-ng"),
                      // The NUL between the three: moving a character from one to the next is another key.
                      VoiceCache.fileName(text: "Hund", voice: "deder ", program: "espeak-ng")]
        #expect(Set(others + [name]).count == others.count + 1)
    }

    @Test func aFileIsSpeechOnlyWithAWAVHeaderAndSound() {
        #expect(VoiceCache.isSpeech(VoiceCacheTests.wav, size: VoiceCacheTests.wav.count))
        #expect(!VoiceCache.isSpeech(Array(VoiceCacheTests.wav.prefix(12)), size: 44))
        #expect(!VoiceCache.isSpeech(Array("RIFX\0\0\0\0WAVE".utf8), size: 100))
    }

    @Test func pruningRemovesWhatNoTestUsedForThirtyDaysAndLeftoversOfAnHour() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = VoiceCache(sharedStatePath: directory.path)
        let clock = ManualClock("2026-11-28")
        let now = clock.now()
        let day: Int64 = 86_400_000
        directory.write("cache/voice/placeholder", "")
        let files: [(String, Int64)] = [
            ("fresh.wav", now - day), ("old.wav", now - 31 * day), ("kept.wav", now - 40 * day),
            ("edge.wav", now - 30 * day), (".a.wav.tmp", now - 2 * 3_600_000), (".b.wav.tmp", now - 60_000),
            (".a.txt.tmp", now - 2 * 3_600_000), ("notes.txt", now - 400 * day), ("c.wav.txt.part", now - 2 * 3_600_000),
        ]
        for (name, time) in files {
            directory.write("voice-cache/" + name, "x")
            try FileSystem.rename(directory.path + "/voice-cache/" + name, in: nil, to: cache.path + "/" + name, in: nil)
            try FileSystem.setModificationTime(cache.path + "/" + name, in: nil, milliseconds: time)
        }
        #expect(cache.prune(now: now, keep: ["kept.wav"]) == [".a.txt.tmp", ".a.wav.tmp", "c.wav.txt.part", "old.wav"])
        // Thirty days on: what is older than thirty days goes (not `keep`'s any longer), and a
        // file being made then is a crash's leftover.
        clock.advance(days: 30)
        #expect(cache.prune(now: clock.now()) == [".b.wav.tmp", "edge.wav", "fresh.wav", "kept.wav"])
    }

    @Test func aVoiceComesFromTheLanguageTagElseTheSetting() {
        let settings = VoiceSettings(program: "espeak-ng", language: "en")
        #expect(settings.voice(tags: ["ja:kana", "lang:de"]) == "de")
        #expect(settings.voice(tags: ["ja"]) == "en")
        #expect(VoiceSettings(program: "espeak-ng", language: nil).voice(tags: []) == "")
        #expect(VoiceSettings.arguments(for: ["espeak-ng"], voice: "de", output: "/c/x.part") == ["-v", "de", "-w", "/c/x.part", "--stdin"])
        #expect(VoiceSettings.arguments(for: ["/usr/bin/piper", "--model", "de.onnx"], voice: "de", output: "/c/x.part")
                == ["--output_file", "/c/x.part"])
    }
}
