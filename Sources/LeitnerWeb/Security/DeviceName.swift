/// A device's first name, made from its browser's `User-Agent` ("Chrome on Android"), and the
/// cleaning every name gets: one line, no control characters, no tab (the devices file's
/// separator), at most 60 characters.
enum DeviceName {
    static func from(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "A browser" }
        // Order matters: Edge and Chrome on iOS say "Safari" too, Chrome says "Safari" too.
        let browsers = [("Edg", "Edge"), ("Firefox", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
                        ("Chromium", "Chromium"), ("Chrome", "Chrome"), ("Safari", "Safari")]
        let systems = [("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
                       ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Linux", "Linux")]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return "A browser on \(system)"
        case (nil, nil): return "A browser"
        }
    }

    static func clean(_ name: String) -> String {
        let kept = name.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let single = String(kept).split(separator: " ").joined(separator: " ")
        return String(single.prefix(DeviceBook.maxNameLength))
    }
}
