/// The five places of the navigation bar.
public enum PageSection: String, Sendable, CaseIterable {
    case today = "Today"
    case review = "Review"
    case cards = "Cards"
    case statistics = "Statistics"
    case devices = "Devices"

    var path: String {
        switch self {
        case .today: "/"
        case .review: "/review"
        case .cards: "/cards"
        case .statistics: "/stats"
        case .devices: "/devices"
        }
    }
}
