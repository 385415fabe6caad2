/// The decoded bytes of an escaped string, written into storage sized beforehand
/// (`JSONParser.parseEscapedString`), which they never outgrow.
struct DecodedBytes {
    let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(storage: UnsafeMutableBufferPointer<UInt8>) {
        self.storage = storage
    }

    mutating func append(_ byte: UInt8) {
        storage[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        for byte in bytes { append(byte) }
    }
}
