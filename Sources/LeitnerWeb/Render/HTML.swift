import LeitnerClient

/// Text made safe inside an HTML element or a quoted attribute (`HTMLText.escape`, which the
/// statistics report shares). Every text from a card, the daemon or a request goes through here
/// before it is put in a page.
public enum HTML {
    public static func escape(_ text: some StringProtocol) -> String { HTMLText.escape(text) }
}
