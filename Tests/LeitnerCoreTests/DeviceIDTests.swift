import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// The device id (docs/sync.md, "Devices").
@Suite struct DeviceIDTests {
    @Test(arguments: ["a", "laptop", "Desk_top-2", String(repeating: "x", count: 64)])
    func namesThatAreIds(name: String) {
        #expect(DeviceID.problem(name) == nil)
    }

    @Test(arguments: ["", "-x", ".hidden", "a b", "a/b", "café", "local.x", String(repeating: "x", count: 65)])
    func namesThatAreNot(name: String) {
        #expect(DeviceID.problem(name) != nil)
    }

    @Test func aRandomIdIsAnIdAndDiffers() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<100).map { _ in DeviceID.random(using: &generator) }
        for id in ids { #expect(DeviceID.problem(id) == nil && id.utf8.count == 12) }
        #expect(Set(ids).count == 100)
    }

    @Test func theFirstCallMakesTheIdAndLaterCallsReadIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/state/leitner/device"
        let made = try DeviceID.loadOrCreate(at: path)
        #expect(directory.read("state/leitner/device") == made + "\n")
        #expect(try DeviceID.loadOrCreate(at: path) == made)
        var st = stat()
        #expect(stat(directory.path + "/state/leitner", &st) == 0 && st.st_mode & 0o777 == 0o700)
    }

    @Test func callsAtOnceAllTakeTheSameId() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/device"
        let ids = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<16 { group.addTask { try? DeviceID.loadOrCreate(at: path) } }
            var result: [String?] = []
            for await id in group { result.append(id) }
            return result
        }
        #expect(ids.allSatisfy { $0 != nil })
        #expect(Set(ids.compactMap { $0 }).count == 1)
    }

    @Test func aDamagedFileIsAnErrorNamingIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("device", "not an id\n")
        #expect {
            try DeviceID.loadOrCreate(at: directory.path + "/device")
        } throws: { error in
            "\(error)".hasPrefix(directory.path + "/device: ") && "\(error)".contains("[Sync] Device=")
        }
    }
}
