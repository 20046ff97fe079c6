import ShowreelWire

/// The flow steps for what simctl does to a device from outside, by Maestro's names:
/// `setClipboard`, `pasteText`, `copyTextFrom`, `openLink`.
public enum SystemStep: Sendable {
    /// `setClipboard: "text"`: the device's pasteboard holds the text.
    case setClipboard(String)
    /// `pasteText`: the pasteboard's text into the focused field (Cmd+V).
    case pasteText
    /// `copyTextFrom: {id: countryName}`: the element's text (its value, else its label) onto the pasteboard.
    case copyTextFrom(FlowStep.Target)
    /// `openLink: countries://country/CA`: the app owning the scheme opens the URL.
    case openLink(String)

    /// The steps' names, as a flow writes them.
    static let names = ["setClipboard", "pasteText", "copyTextFrom", "openLink"]
    /// Those that take no value.
    static let bareNames: Set = ["pasteText"]

    var summary: String {
        switch self {
        case let .setClipboard(text): "Copy “\(text)”"
        case .pasteText: "Paste"
        case let .copyTextFrom(target): "Copy the text of \(FlowStep.quoted(target))"
        case let .openLink(url): "Open \(url)"
        }
    }

    static func example(_ name: String) -> String? {
        switch name {
        case "setClipboard": "setClipboard: \"hello@example.com\""
        case "copyTextFrom": "copyTextFrom: {id: countryName}"
        case "openLink": "openLink: countries://country/CA"
        default: nil
        }
    }
}
