import LeitnerVarlink

/// The member names the writers of `Card`, `Side` and `Medium` write (`serialize(into:)`), each
/// made once: the same names as their `json`, which a unit test holds them to.
enum JSONKeys {
    static let back = JSONKey("back")
    static let cloze = JSONKey("cloze")
    static let clozeOf = JSONKey("clozeOf")
    static let front = JSONKey("front")
    static let id = JSONKey("id")
    static let level = JSONKey("level")
    static let media = JSONKey("media")
    static let mediaType = JSONKey("mediaType")
    static let name = JSONKey("name")
    static let path = JSONKey("path")
    static let reverseOf = JSONKey("reverseOf")
    static let tags = JSONKey("tags")
    static let text = JSONKey("text")
}
