import ShowreelAccessibility
import ShowreelRender

extension ElementSnapshot {
    /// A snapshot of one of the toolkit's own element types.
    init(type: ElementType, identifier: String, label: String, value: String? = nil, placeholder: String? = nil,
         frame: Rect, isEnabled: Bool, isHittable: Bool, children: [ElementSnapshot] = []) {
        self.init(type: type.rawValue, identifier: identifier, label: label, value: value, placeholder: placeholder,
                  frame: frame, isEnabled: isEnabled, isHittable: isHittable, children: children)
    }

    /// The toolkit's type of this element, when it is one the toolkit knows.
    public var elementType: ElementType? { ElementType(rawValue: type) }
}
