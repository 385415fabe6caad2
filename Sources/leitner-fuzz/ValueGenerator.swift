import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// Valid values for any type of an interface, drawn at random: the type says what a value is;
/// a member's name, where it is one the box's interfaces use for something narrower than its
/// type (`id`, `level`, `from`), says which values of that type are worth sending. Nothing here
/// names a method: a method added to the interface text is called with no new code.
struct ValueGenerator {
    /// The interface the types are declared in.
    let interface: VarlinkInterfaceDescription
    /// What the fuzzer knows of the box: the ids of its cards, today's date, the interfaces.
    var knowledge: BoxKnowledge

    /// Words the texts, ids and patterns are made of: few, so that texts repeat (duplicate
    /// fronts) and patterns find something.
    static let words = ["hola", "adiós", "gato", "猫", "café", "Straße", "x", "mañana", "perro", "a"]
    static let levels = Level.allCases.map(\.name)
    static let fileNames = ["front.txt", "back.txt", "front.md", "back.md", "side.txt", "image.png", "sound.mp3"]

    /// A valid value for a member `name` of `type`; nil for a member left out (optional).
    func value(named name: String, of type: VarlinkType, using random: inout FuzzRandom, depth: Int = 0) -> JSONValue? {
        if case .optional(let wrapped) = type {
            // Absent, null, or a value: all three are valid.
            switch random.int(0...5) {
            case 0: return nil
            case 1: return .null
            default: return value(named: name, of: wrapped, using: &random, depth: depth)
            }
        }
        if let hinted = hinted(name, type, using: &random) { return hinted }
        switch type {
        case .optional(let wrapped):
            return value(named: name, of: wrapped, using: &random, depth: depth)
        case .bool:
            return .bool(random.chance(0.5))
        case .int:
            return .int(Int64(random.int(0...100)))
        case .float:
            return .double(Double(random.int(0...1000)) / 10)
        case .string:
            return .string(text(using: &random))
        case .object:
            return .object([:])
        case .enumeration(let cases):
            return .string(random.pick(cases))
        case .named(let typeName):
            guard let declared = interface.types[typeName] else { return .null }
            return value(named: name, of: declared, using: &random, depth: depth)
        case .array(let element):
            guard depth < 4 else { return .array([]) }
            let count = random.int(0...4)
            return .array((0..<count).compactMap { _ in value(named: name, of: element, using: &random, depth: depth + 1) })
        case .map(let element):
            guard depth < 4 else { return .object([:]) }
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.int(0...2) {
                members[random.pick(ValueGenerator.words)] = value(named: name, of: element, using: &random, depth: depth + 1)
            }
            return .object(members)
        case .structure(let fields):
            return .object(structure(fields, using: &random, depth: depth))
        }
    }

    /// The members of a structure, each drawn by its own name and type. Optional members `text`
    /// and `data` side by side are the two forms of one content (`Asset`): mostly exactly one of
    /// them is given, as a valid value has it.
    func structure(_ fields: [VarlinkField], using random: inout FuzzRandom, depth: Int = 0) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for field in fields {
            if let member = value(named: field.name, of: field.type, using: &random, depth: depth + 1) {
                members[field.name] = member
            }
        }
        let forms = fields.filter { ($0.name == "text" || $0.name == "data") && $0.type.isOptional }
        if forms.count == 2, random.chance(0.9) {
            let kept = random.pick(forms)
            for form in forms { members[form.name] = nil }
            if case .optional(let wrapped) = kept.type {
                members[kept.name] = value(named: kept.name, of: wrapped, using: &random, depth: depth + 1)
            }
        }
        return members
    }

    /// A value chosen by the member's name, for names the box's interfaces give a narrower
    /// meaning than their type; nil for any other name, or one whose type is not the one the
    /// hint is for.
    private func hinted(_ name: String, _ type: VarlinkType, using random: inout FuzzRandom) -> JSONValue? {
        let lower = name.lowercased()
        switch type {
        case .string:
            if lower == "id" || lower.hasSuffix("id") {
                // Mostly a card a reply just named, or one of the box; else a new id.
                if !knowledge.recentIds.isEmpty, random.chance(0.4) { return .string(random.pick(knowledge.recentIds)) }
                if !knowledge.ids.isEmpty, random.chance(0.6) { return .string(random.pick(knowledge.ids)) }
                return .string(random.pick(ValueGenerator.words) + "-" + String(random.int(0...999)))
            }
            if lower.contains("level") { return .string(random.pick(ValueGenerator.levels)) }
            if lower == "from" || lower == "to" || lower.contains("date") || lower == "since" {
                let date = knowledge.today.adding(days: random.int(-60...60)).description
                if lower == "since", random.chance(0.3) { return .string(date + "T0\(random.int(0...9)):00:00+01:00") }
                return .string(date)
            }
            if lower == "name" { return .string(random.pick(ValueGenerator.fileNames)) }
            if lower == "data" { return .string(Base64.encode(random.bytes(random.int(1...64)))) }
            if lower == "pattern" { return .string(random.pick(ValueGenerator.words)) }
            if lower == "keep" { return .string(random.pick(["mine", "theirs", "front.txt"])) }
            if lower == "device" {
                // A device the store has (this machine, a browser that kept a test), or a new
                // name: each is answered its own way.
                if !knowledge.devices.isEmpty, random.chance(0.6) { return .string(random.pick(knowledge.devices)) }
                return .string("web-" + random.pick(["phone", "tablet", "fuzz"]))
            }
            if lower == "time" {
                // A moment as a browser gives one: mostly within minutes of now, else a day or a
                // year either way, or the eve of the epoch.
                let now = RealTime.nanoseconds / 1_000_000
                let day: Int64 = 86_400_000
                let moment = switch random.int(0...7) {
                case 0: -day
                case 1: now - 365 * day
                case 2: now + 365 * day
                case 3: now - Int64(random.int(1...3)) * day
                default: now + Int64(random.int(-20...20)) * 60_000
                }
                return .string(DayClock.rfc3339Milliseconds(moment))
            }
            if lower == "interface" {
                return knowledge.interfaces.isEmpty ? nil : .string(random.pick(knowledge.interfaces))
            }
        case .int:
            if lower == "limit" { return .int(Int64(random.int(1...40))) }
            if lower == "days" { return .int(Int64(random.int(1...120))) }
            if lower.hasSuffix("ms") { return .int(Int64(random.int(0...120_000))) }
        case .array(.string):
            if lower == "fields" {
                return .array(random.shuffled(["id", "front", "back"]).prefix(random.int(1...3)).map(JSONValue.string))
            }
        default:
            break
        }
        return nil
    }

    /// A short text of the box's words, one or two lines.
    func text(using random: inout FuzzRandom) -> String {
        var words: [String] = []
        for _ in 0..<random.int(1...3) { words.append(random.pick(ValueGenerator.words)) }
        return words.joined(separator: random.chance(0.2) ? "\n" : " ")
    }
}
