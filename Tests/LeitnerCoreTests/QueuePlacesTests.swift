import Testing
@testable import LeitnerCore

/// `QueuePlaces`, the open test's places by entry number, answers as the dictionary it replaced.
@Suite struct QueuePlacesTests {
    @Test func answersAsADictionaryThroughRandomChanges() {
        var places = QueuePlaces()
        var model: [UInt32: Int32] = [:]
        var random = SeededGenerator(seed: 11)
        for _ in 0..<20_000 {
            let number = UInt32(random.next() % 500)
            switch random.next() % 3 {
            case 0: #expect(places.removeValue(forKey: number) == model.removeValue(forKey: number))
            case 1: places[number] = nil; model[number] = nil
            default:
                let place = Int32(truncatingIfNeeded: random.next()) / 2  // never Int32.min, the mark of absence
                places[number] = place
                model[number] = place
            }
            #expect(places[number] == model[number])
        }
        #expect(places.count == model.count && places.isEmpty == model.isEmpty)
        #expect(Set(places.keys) == Set(model.keys))
        #expect(places.inOrder == model.sorted { $0.value < $1.value }.map(\.key))
        #expect(places[100_000] == nil)
    }
}
