import ShowreelWire
import Yams

extension FileParser {
    /// A `SystemStep` from its name and value (nil after reporting what is wrong).
    func systemStep(_ name: String, _ argument: Node?) -> SystemStep? {
        switch name {
        case "setClipboard":
            guard let text = string(argument!, field: name) else { return nil }
            guard text.count <= AutomationLimits.maxPasteboardLength else {
                fail(
                    location(argument!), "setClipboard takes at most \(AutomationLimits.maxPasteboardLength) characters, got \(text.count)")
                return nil
            }
            return .setClipboard(text)
        case "pasteText":
            return .pasteText
        case "copyTextFrom":
            return target(argument!, step: name).map { .copyTextFrom($0.0) }
        case "openLink":
            var node = argument!
            if case .mapping = node {
                // Maestro's long form; `autoVerify` and `browser` have nothing to do on a device without a browser.
                guard let fields = mapping(node, field: name, allowed: ["link"]), let link = fields["link"] else {
                    fail(location(node), "missing field 'link' in openLink")
                    return nil
                }
                node = link
            }
            guard let url = string(node, field: "link") else { return nil }
            guard URLScheme.of(url) != nil else {
                fail(location(node), "openLink needs a URL with a scheme, such as countries://country/CA, got '\(url)'")
                return nil
            }
            return .openLink(url)
        default:
            return nil
        }
    }
}
