/// A value that writes its own compact JSON text: the bytes `JSONValue.serialize(into:)` gives
/// for the value it stands for, without making that value first. A reply of 14,000 cards made
/// three dictionaries a card, and sorted their keys, only to write them (docs/performance.md,
/// "A listing without text").
public protocol JSONWritable {
    /// Appends the compact JSON text of this value to `buffer`.
    func serialize(into buffer: inout [UInt8])
}

extension JSONValue: JSONWritable {}

/// A member's name as a `JSONObjectWriter` writes it: `"name":`, made once (a listing writes each
/// name 14,000 times).
public struct JSONKey: Sendable {
    let name: String
    /// `"name":`
    let quoted: [UInt8]

    /// A name of the writer's own, which needs no escape.
    public init(_ name: StaticString) {
        self.name = name.description
        quoted = [UInt8(ascii: "\"")] + Array(self.name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
    }
}

/// Writes one JSON object member by member, for a `JSONWritable`. The members must be given in
/// the order of their keys, as `JSONValue` writes an object's, so that both give the same bytes;
/// a debug build checks it.
///
///     var object = JSONObjectWriter(into: &buffer)
///     object.string(JSONKey("id"), id, into: &buffer)   // keys made once, in a static let
///     object.end(&buffer)
public struct JSONObjectWriter {
    private var first = true
    #if DEBUG
    private var lastKey: String?
    #endif

    /// Begins the object: appends its `{`.
    public init(into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
    }

    /// A member whose value writes itself.
    public mutating func member(_ key: JSONKey, _ value: some JSONWritable, into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        value.serialize(into: &buffer)
    }

    /// A string member.
    public mutating func string(_ key: JSONKey, _ value: String, into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        JSONSerializer.appendString(value, to: &buffer)
    }

    /// A member that is a string, or `null` when `value` is nil.
    public mutating func string(_ key: JSONKey, orNull value: String?, into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        if let value { JSONSerializer.appendString(value, to: &buffer) } else { buffer.append(contentsOf: JSONSerializer.null) }
    }

    /// An integer member.
    public mutating func int(_ key: JSONKey, _ value: Int64, into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        JSONSerializer.appendInteger(value, to: &buffer)
    }

    /// An array member of strings.
    public mutating func strings(_ key: JSONKey, _ values: [String], into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        buffer.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONSerializer.appendString(value, to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// An array member whose elements write themselves.
    public mutating func array(_ key: JSONKey, _ values: [some JSONWritable], into buffer: inout [UInt8]) {
        self.key(key, into: &buffer)
        buffer.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            value.serialize(into: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Ends the object: appends its `}`.
    public func end(_ buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "}"))
    }

    /// `"key":`, after a comma unless it is the first member.
    private mutating func key(_ key: JSONKey, into buffer: inout [UInt8]) {
        #if DEBUG
        assert(lastKey.map { $0 < key.name } ?? true, "JSON members are written in the order of their keys: '\(key.name)' after '\(lastKey ?? "")'")
        lastKey = key.name
        #endif
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        buffer.append(contentsOf: key.quoted)
    }
}
