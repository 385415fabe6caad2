import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// One run: the daemon on a temporary store, its interfaces read from itself, every parameter of
/// every method sent the edges of its type, then random valid calls until the budget is spent,
/// the invariants checked after each.
final class FuzzSession {
    let options: FuzzOptions
    private let daemon: DaemonUnderTest
    private var random: FuzzRandom
    private var judge: ReplyJudge!
    private var checker: InvariantChecker!
    /// A connection opened at the start and used only between calls: the daemon must go on
    /// serving it whatever another connection sent.
    private var bystander: FuzzConnection!
    private var knowledge = BoxKnowledge()
    /// Every method of every interface, qualified, in a fixed order.
    private var methods: [(interface: VarlinkInterfaceDescription, method: VarlinkMethod)] = []

    /// Methods whose success ends the daemon (`Stop`): it is started again on the same store.
    static let stoppingMethods: Set<String> = [BoxMethod.stop.qualifiedName]

    /// Figures for the report.
    private(set) var edgeCalls = 0
    private(set) var randomSteps = 0
    private(set) var calls = 0
    private(set) var restarts = 0
    private(set) var handChanges = 0
    private(set) var clockMoves = 0
    private(set) var bursts = 0
    /// By method, how its calls were answered: `ok` or the error's short name, with counts.
    private(set) var outcomes: [String: [String: Int]] = [:]
    /// Where the run is, for a failure's report.
    private(set) var phase = "start"

    init(options: FuzzOptions) throws(FuzzFailure) {
        self.options = options
        random = FuzzRandom(seed: options.seed)
        do { daemon = try DaemonUnderTest(programs: options.programs) } catch {
            throw FuzzFailure("cannot make a temporary directory: \(error)")
        }
    }

    /// The store and the daemon's messages, kept after a failure.
    var directory: String { daemon.directory }
    func daemonLogTail() -> String { daemon.logTail() }

    /// Runs the whole session.
    func run() throws(FuzzFailure) {
        try daemon.start()
        try readInterfaces()
        phase = "warm-up"
        for _ in 0..<25 { try randomStep() }
        phase = "edge calls"
        for (interface, method) in methods { try edgeCalls(interface, method) }
        phase = "random calls"
        let deadline = FuzzSession.now() + options.budget
        while FuzzSession.now() < deadline { try randomStep() }
        phase = "stop"
        try stopAndRestart(how: "SIGTERM")
        daemon.stop()
    }

    /// How each method's calls were answered, a line a method: what the run reached.
    func outcomeReport() -> String {
        outcomes.keys.sorted().map { method in
            let counts = outcomes[method]!.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
            return "  \(method): " + counts.joined(separator: ", ")
        }.joined(separator: "\n")
    }

    /// Stops the daemon after a failure, keeping its store and messages for a look.
    func stopAfterFailure() { daemon.stop() }

    /// Removes the temporary directory (after a run without failure).
    func cleanUp() {
        daemon.stop()
        if !options.keep { daemon.removeDirectory() }
    }

    // MARK: - The interfaces

    /// Reads the interfaces from the daemon itself: `GetInfo`, then each one's description.
    private func readInterfaces() throws(FuzzFailure) {
        let service = VarlinkServiceInterface.declaration
        judge = ReplyJudge(interfaces: [service.name: service], socketPath: daemon.socketPath)
        let connection = try judge.connect()
        let info = try judge.expectSuccess(connection, VarlinkServiceMethod.getInfo.qualifiedName, [:])[0].parameters
        var interfaces: [String: VarlinkInterfaceDescription] = [:]
        for name in info["interfaces"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            let reply = try judge.expectSuccess(connection, VarlinkServiceMethod.getInterfaceDescription.qualifiedName,
                                                ["interface": .string(name)])[0].parameters
            do { interfaces[name] = try VarlinkInterfaceDescription(parsing: reply["description"]?.stringValue ?? "") } catch {
                throw FuzzFailure("the description of \(name) does not parse: \(error)")
            }
        }
        judge = ReplyJudge(interfaces: interfaces, socketPath: daemon.socketPath)
        checker = InvariantChecker(daemon: daemon, judge: judge)
        bystander = try judge.connect()
        knowledge.interfaces = interfaces.keys.sorted()
        for name in interfaces.keys.sorted() {
            let interface = interfaces[name]!
            for methodName in interface.methods.keys.sorted() { methods.append((interface, interface.methods[methodName]!)) }
        }
        if daemon.libfaketime == nil {
            say("leitner-fuzz: libfaketime not found (Debian package faketime): the daemon's days do not pass")
        }
        say("leitner-fuzz: \(interfaces.count) interfaces, \(methods.count) methods: \(knowledge.interfaces.joined(separator: ", "))")
        try refreshKnowledge()
    }

    // MARK: - Edge calls

    /// Each parameter of `method` at each edge of its type, the others valid; the members of a
    /// structure parameter (or of an array of structures) likewise; and a parameter the method
    /// does not take.
    private func edgeCalls(_ interface: VarlinkInterfaceDescription, _ method: VarlinkMethod) throws(FuzzFailure) {
        let edges = EdgeValues(interface: interface)
        let name = interface.name + "." + method.name
        var sent = 0
        func send(_ replace: String, _ json: String?, _ label: String, minimal: Bool = false) throws(FuzzFailure) {
            var parameters = validParameters(interface, method, minimal: minimal)
            parameters.removeAll { $0.name == replace }
            if let json { parameters.append((replace, json)) }
            try edgeCall(FuzzCall(method: name, parameters: parameters, more: random.chance(0.3),
                                  purpose: "edge \(replace)=\(label)\(minimal ? ", the others minimal" : "")"))
            sent += 1
        }
        for field in method.input {
            // Each edge twice: the other parameters minimal (none of the optional ones, which may
            // hide it: a Log since tomorrow reads no entry), then drawn at random.
            for edge in edges.edges(of: field.type) {
                try send(field.name, edge.json, edge.label, minimal: true)
                try send(field.name, edge.json, edge.label)
            }
            // One level down: each member of a structure, or of a structure in an array.
            let generator = ValueGenerator(interface: interface, knowledge: knowledge)
            guard let (fields, inArray) = structureFields(field.type, interface) else { continue }
            // A valid structure with a member its type does not declare: let through (Varlink).
            var valid = generator.structure(fields, using: &random)
            valid["fuzzUnknown"] = ["nested": [1, 2]]
            let text = JSONValue.object(valid).jsonText
            try send(field.name, inArray ? "[" + text + "]" : text, "an unknown member")
            for member in fields {
                for edge in edges.edges(of: member.type) {
                    var others = generator.structure(fields, using: &random)
                    others[member.name] = nil
                    var text = JSONValue.object(others).jsonText
                    if let json = edge.json {
                        let separator = others.isEmpty ? "" : ","
                        text = String(text.dropLast()) + separator + JSONValue.string(member.name).jsonText + ":" + json + "}"
                    }
                    try send(field.name, inArray ? "[" + text + "]" : text, "\(member.name)=\(edge.label)")
                }
            }
        }
        try send("fuzzUnknown", "1", "a parameter the method does not take")
        // A method of the interface that does not exist, once per interface.
        if method.name == interface.methods.keys.min() {
            try edgeCall(FuzzCall(method: interface.name + ".FuzzNoSuchMethod", parameters: [], purpose: "edge unknown method"))
        }
        knowledge = knowledge.updated(with: try checker.full(bystander: bystander, looseHalves: knowledge.looseHalves))
        say("leitner-fuzz: \(name): \(sent) edge calls")
    }

    /// The fields of a structure type, or of the structure an array holds (`[]NewCard`).
    private func structureFields(_ type: VarlinkType, _ interface: VarlinkInterfaceDescription) -> ([VarlinkField], Bool)? {
        switch type {
        case .optional(let wrapped): return structureFields(wrapped, interface)
        case .named(let name): return interface.types[name].flatMap { structureFields($0, interface) }
        case .structure(let fields): return (fields, false)
        case .array(let element):
            guard let (fields, nested) = structureFields(element, interface), !nested else { return nil }
            return (fields, true)
        default: return nil
        }
    }

    /// Sends one edge call and checks the cheap invariants.
    private func edgeCall(_ call: FuzzCall) throws(FuzzFailure) {
        edgeCalls += 1
        try send(call)
        do { try checker.quick(bystander: bystander) } catch { throw FuzzFailure(error.reason, call: call) }
    }

    // MARK: - Random calls

    /// One random valid call to a random method, or now and then a change made by hand, then
    /// every invariant.
    private func randomStep() throws(FuzzFailure) {
        randomSteps += 1
        if daemon.libfaketime != nil, random.chance(0.02) {
            // Time passes: hours, or days (a new test, days skipped, R6).
            let seconds = random.chance(0.5) ? random.int(1...12) * 3600 : random.int(1...3) * 86_400
            do { try daemon.moveClock(by: seconds) } catch { throw FuzzFailure("cannot move the clock: \(error)") }
            clockMoves += 1
            do { try refreshKnowledge() } catch {
                throw FuzzFailure(error.reason + "\n  after the clock moved \(seconds) s forward (random step \(randomSteps))",
                                  call: error.call)
            }
            return
        }
        if random.chance(0.05) {
            try burst()
            return
        }
        if random.chance(0.05) {
            let (change, halves) = try HandChanges(storePath: daemon.storePath).perform(knowledge, using: &random)
            handChanges += 1
            knowledge.looseHalves = halves
            do { try refreshKnowledge() } catch {
                throw FuzzFailure(error.reason + "\n  after a change by hand (random step \(randomSteps)): " + change,
                                  call: error.call)
            }
            return
        }
        var (interface, method) = random.pick(methods)
        // A method that stops the daemon, a tenth as often as the others: a restart is slow.
        while FuzzSession.stoppingMethods.contains(interface.name + "." + method.name), random.chance(0.9) {
            (interface, method) = random.pick(methods)
        }
        var parameters = validParameters(interface, method)
        var purpose = "random step \(randomSteps)"
        // Now and then one parameter at an edge of its type, mid-sequence.
        if !method.input.isEmpty, random.chance(0.05) {
            let field = random.pick(method.input)
            let edge = random.pick(EdgeValues(interface: interface).edges(of: field.type))
            parameters.removeAll { $0.name == field.name }
            if let json = edge.json { parameters.append((field.name, json)) }
            purpose += " with edge \(field.name)=\(edge.label)"
        }
        let call = FuzzCall(method: interface.name + "." + method.name, parameters: parameters,
                            more: random.chance(0.3), purpose: purpose)
        try send(call)
        do { try refreshKnowledge() } catch { throw FuzzFailure(error.reason, call: call) }
    }

    /// Two to five random valid calls at once, each on a connection of its own: all are written
    /// before any reply is read, so the daemon has them in hand together (docs/daemon.md,
    /// "Concurrency: plain threads, one owner of the box"). A method that stops the daemon is left out.
    private func burst() throws(FuzzFailure) {
        var sent: [(FuzzCall, FuzzConnection)] = []
        for index in 0..<random.int(2...5) {
            var (interface, method) = random.pick(methods)
            while FuzzSession.stoppingMethods.contains(interface.name + "." + method.name) {
                (interface, method) = random.pick(methods)
            }
            let call = FuzzCall(method: interface.name + "." + method.name, parameters: validParameters(interface, method),
                                more: random.chance(0.3), purpose: "random step \(randomSteps), call \(index + 1) of a burst")
            let connection = try judge.connect()
            calls += 1
            guard connection.write(call) else {
                throw FuzzFailure("the connection was closed before the call was written", call: call)
            }
            sent.append((call, connection))
        }
        for (call, connection) in sent {
            let replies: [VarlinkReply]
            do { replies = try judge.judge(call, connection.replies(to: call)) } catch {
                usleep(200_000)
                guard let ended = daemon.exited() else { throw error }
                throw FuzzFailure("leitnerd \(ended): \(error.reason)", call: call)
            }
            note(call, replies)
        }
        bursts += 1
        do { try refreshKnowledge() } catch {
            throw FuzzFailure(error.reason + "\n  after a burst (random step \(randomSteps))", call: sent.last?.0)
        }
    }

    /// Counts how a call was answered, and notes the ids its replies name.
    private func note(_ call: FuzzCall, _ replies: [VarlinkReply]) {
        let answer = replies.last?.error.map { String($0[$0.index(after: $0.lastIndex(of: ".")!)...]) } ?? "ok"
        outcomes[call.method, default: [:]][answer, default: 0] += 1
        for reply in replies where reply.error == nil { knowledge.noteIds(in: .object(reply.parameters)) }
    }

    /// Valid parameters for `method`, drawn at random; `minimal`: only those that are not optional.
    private func validParameters(_ interface: VarlinkInterfaceDescription, _ method: VarlinkMethod,
                                 minimal: Bool = false) -> [(name: String, json: String)] {
        let generator = ValueGenerator(interface: interface, knowledge: knowledge)
        var parameters: [(name: String, json: String)] = []
        for field in method.input where !(minimal && field.type.isOptional) {
            if let value = generator.value(named: field.name, of: field.type, using: &random) {
                parameters.append((field.name, value.jsonText))
            }
        }
        return parameters
    }

    /// Every invariant, and what the box holds now.
    private func refreshKnowledge() throws(FuzzFailure) {
        knowledge = knowledge.updated(with: try checker.full(bystander: bystander, looseHalves: knowledge.looseHalves))
    }

    // MARK: - Sending

    /// Sends a call on a connection of its own and judges the outcome; a method that stops the
    /// daemon is followed by its exit and a new start.
    private func send(_ call: FuzzCall) throws(FuzzFailure) {
        calls += 1
        let connection = try judge.connect()
        let replies: [VarlinkReply]
        do { replies = try judge.judge(call, connection.send(call)) } catch {
            // A connection closed without a reply is most often a daemon that died: say so.
            usleep(200_000)
            guard let ended = daemon.exited() else { throw error }
            throw FuzzFailure("leitnerd \(ended): \(error.reason)", call: call)
        }
        note(call, replies)
        if FuzzSession.stoppingMethods.contains(call.method), replies.last?.error == nil {
            guard let ended = daemon.waitForExit(seconds: 20) else {
                throw FuzzFailure("leitnerd did not exit within 20 s of a successful \(call.shortName)", call: call)
            }
            guard ended == .exited(0) else { throw FuzzFailure("leitnerd \(ended) after \(call.shortName)", call: call) }
            try restart()
            return
        }
        do { try checker.alive() } catch { throw FuzzFailure(error.reason, call: call) }
    }

    /// Stops the daemon with SIGTERM, which must end it with status 0, and starts it again on the
    /// same store: what was on disk must satisfy the invariants.
    private func stopAndRestart(how: String) throws(FuzzFailure) {
        guard let ended = daemon.stop(), ended == .exited(0) else {
            throw FuzzFailure("leitnerd \(daemon.exited().map { "\($0)" } ?? "did not end") on \(how)")
        }
        try restart()
    }

    private func restart() throws(FuzzFailure) {
        restarts += 1
        try daemon.start()
        bystander = try judge.connect()
        try refreshKnowledge()
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
