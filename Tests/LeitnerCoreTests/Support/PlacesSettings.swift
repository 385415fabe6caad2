/// The settings of R23 and R24 a test box is opened with (`BoxOptions.newPerDay`, …): pacing off
/// (`NewPerDay=all`) unless a test asks for it, as every box was before R23.
struct PlacesSettings {
    var newPerDay: Int? = nil
    var leechAfter = 8
    var suspendLeeches = false
}
