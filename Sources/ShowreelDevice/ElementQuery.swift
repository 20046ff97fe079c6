import ShowreelUI

/// Which element a test means, as in XCUITest: `app.buttons["tapButton"]` is
/// `ElementQuery(type: .button, identifierOrLabel: "tapButton")`.
public struct ElementQuery: Sendable, Equatable, Codable, CustomStringConvertible {
    public var type: ElementType?
    /// Matches the identifier first, else the label (XCUITest's subscript does both).
    public var identifierOrLabel: String?
    public var label: String?

    public init(type: ElementType? = nil, identifierOrLabel: String? = nil, label: String? = nil) {
        self.type = type; self.identifierOrLabel = identifierOrLabel; self.label = label
    }

    public static func button(_ key: String) -> ElementQuery { ElementQuery(type: .button, identifierOrLabel: key) }
    public static func staticText(_ key: String) -> ElementQuery { ElementQuery(type: .staticText, identifierOrLabel: key) }
    public static func any(_ key: String) -> ElementQuery { ElementQuery(identifierOrLabel: key) }

    public func matches(_ node: AccessibilityNode) -> Bool {
        if let type, node.type != type { return false }
        if let key = identifierOrLabel, node.identifier != key, node.label != key { return false }
        if let label, node.label != label { return false }
        return true
    }

    public var description: String {
        let kind = type.map { "\($0.rawValue)s" } ?? "elements"
        let key = identifierOrLabel.map { "[\"\($0)\"]" } ?? ""
        let extra = label.map { " with label \"\($0)\"" } ?? ""
        return "\(kind)\(key)\(extra)"
    }
}
