import ShowreelGraphics

/// One element of a device's accessibility tree as the automation API sends it.
public struct ElementSnapshot: Codable, Equatable, Sendable {
    public var type: ElementType
    public var identifier: String
    public var label: String
    public var value: String?
    public var placeholder: String?
    /// Frame in screen points.
    public var frame: Rect
    public var isEnabled: Bool
    public var isHittable: Bool
    public var children: [ElementSnapshot]

    public init(
        type: ElementType, identifier: String, label: String, value: String? = nil, placeholder: String? = nil,
        frame: Rect, isEnabled: Bool, isHittable: Bool, children: [ElementSnapshot] = []
    ) {
        self.type = type; self.identifier = identifier; self.label = label; self.value = value
        self.placeholder = placeholder; self.frame = frame; self.isEnabled = isEnabled
        self.isHittable = isHittable; self.children = children
    }

    /// This element and every descendant, depth first (document order).
    public var flattened: [ElementSnapshot] { [self] + children.flatMap(\.flattened) }

    /// How a person would name it: its label, else its identifier.
    public var displayName: String { label.isEmpty ? identifier : label }
}
