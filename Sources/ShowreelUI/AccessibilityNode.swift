import ShowreelRender

/// One element of the accessibility tree, as the automation API serialises it.
public struct AccessibilityNode: Codable, Equatable, Sendable {
    public var type: ElementType
    public var identifier: String
    public var label: String
    public var value: String?
    public var placeholder: String?
    /// Frame in screen points.
    public var frame: Rect
    public var isEnabled: Bool
    public var isHittable: Bool
    public var children: [AccessibilityNode]

    public init(type: ElementType, identifier: String, label: String, value: String? = nil, placeholder: String? = nil,
                frame: Rect, isEnabled: Bool, isHittable: Bool, children: [AccessibilityNode] = []) {
        self.type = type; self.identifier = identifier; self.label = label; self.value = value
        self.placeholder = placeholder; self.frame = frame; self.isEnabled = isEnabled
        self.isHittable = isHittable; self.children = children
    }

    /// This node and every descendant, depth first.
    public var flattened: [AccessibilityNode] { [self] + children.flatMap(\.flattened) }
}
