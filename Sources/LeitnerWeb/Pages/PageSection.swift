/// The places of the pages of the navigation bar.
public enum PageSection: String, Sendable, CaseIterable {
    case today = "Today"
    case review = "Review"
    case cards = "Cards"
    case statistics = "Statistics"
    case devices = "Devices"

    /// The navigation bar's four: Devices, seldom wanted, is linked from Today, so that the bar
    /// fits a phone's width.
    static let navigation: [PageSection] = [.today, .review, .cards, .statistics]

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
