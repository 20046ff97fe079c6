import ShowreelAccessibility
import ShowreelGraphics

/// A device's element tree as XCUITest presents it to WebDriver: an `XCUIElementTypeApplication`
/// root over the device's elements, each node with the attributes page source, xpath and
/// predicates read (`type`, `name`, `label`, `value`, `enabled`, `visible`, `x`, ...).
///
/// Nodes are kept flat in document order with their parent's index, so xpath's axes are index
/// walks; a node's `path` (its child positions from the device's roots) is what an element
/// reference keeps to find it again in a later tree.
struct PageTree: Sendable {
    struct Node: Sendable {
        var snapshot: ElementSnapshot
        /// Child positions from the device's roots; empty for the application.
        var path: [Int]
        var parent: Int?
        var children: [Int] = []
        var isApplication: Bool { path.isEmpty }
    }

    private(set) var nodes: [Node] = []
    let screen: Size
    /// The device's tree as it came: what element queries for actions are checked against.
    let roots: [ElementSnapshot]

    /// The tree under an application node named `appName` (the foreground app's bundle id).
    init(roots: [ElementSnapshot], screen: Size, appName: String) {
        self.screen = screen
        self.roots = roots
        let frame = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        let app = ElementSnapshot(type: .other, identifier: appName, label: appName, frame: frame, isEnabled: true, isHittable: true)
        nodes.append(Node(snapshot: app, path: [], parent: nil))
        for (position, root) in roots.enumerated() { add(root, path: [position], parent: 0) }
    }

    private mutating func add(_ snapshot: ElementSnapshot, path: [Int], parent: Int) {
        let index = nodes.count
        var stripped = snapshot
        stripped.children = []
        nodes.append(Node(snapshot: stripped, path: path, parent: parent))
        nodes[parent].children.append(index)
        for (position, child) in snapshot.children.enumerated() { add(child, path: path + [position], parent: index) }
    }

    var root: Int { 0 }

    /// The node at `path`, if the tree still has one there.
    func node(at path: [Int]) -> Int? {
        var index = 0
        for position in path {
            guard nodes[index].children.indices.contains(position) else { return nil }
            index = nodes[index].children[position]
        }
        return index
    }

    /// Every node below `index`, in document order.
    func descendants(of index: Int) -> [Int] {
        var found: [Int] = []
        func visit(_ node: Int) {
            for child in nodes[node].children {
                found.append(child)
                visit(child)
            }
        }
        visit(index)
        return found
    }

    // MARK: Attributes, as XCUITest names them

    static func typeName(_ type: ElementType) -> String {
        "XCUIElementType" + type.rawValue.prefix(1).uppercased() + type.rawValue.dropFirst()
    }

    /// The element type an `XCUIElementType...` name (or a bare `Button`) stands for.
    static func elementType(named name: String) -> ElementType? {
        let bare = name.hasPrefix("XCUIElementType") ? String(name.dropFirst("XCUIElementType".count)) : name
        guard let first = bare.first else { return nil }
        return ElementType(rawValue: first.lowercased() + bare.dropFirst()).flatMap { $0 == .any ? nil : $0 }
    }

    func typeName(of index: Int) -> String {
        nodes[index].isApplication ? "XCUIElementTypeApplication" : Self.typeName(nodes[index].snapshot.type)
    }

    func isVisible(_ index: Int) -> Bool {
        let frame = nodes[index].snapshot.frame
        return frame.width > 0 && frame.height > 0 && frame.maxX > 0 && frame.minX < screen.width
            && frame.maxY > 0 && frame.minY < screen.height
    }

    /// The attribute names page source writes, in its order.
    static let attributeNames = [
        "type", "name", "label", "value", "placeholderValue", "enabled", "visible", "accessible",
        "x", "y", "width", "height", "index",
    ]

    /// An attribute's value as page source writes it, or nil when the element has none.
    func attribute(_ name: String, of index: Int) -> String? {
        let node = nodes[index]
        let element = node.snapshot
        switch name {
        case "type": return typeName(of: index)
        case "name": return element.identifier.isEmpty ? (element.label.isEmpty ? nil : element.label) : element.identifier
        case "label": return element.label.isEmpty ? nil : element.label
        case "identifier": return element.identifier.isEmpty ? nil : element.identifier
        case "value": return element.value
        case "placeholderValue": return element.placeholder
        case "enabled": return element.isEnabled ? "true" : "false"
        case "visible": return isVisible(index) ? "true" : "false"
        case "accessible": return (!element.type.isChrome && !element.label.isEmpty) ? "true" : "false"
        case "hittable": return element.isHittable ? "true" : "false"
        case "selected": return isSelected(index) ? "true" : "false"
        case "x": return String(Int(element.frame.minX.rounded()))
        case "y": return String(Int(element.frame.minY.rounded()))
        case "width": return String(Int(element.frame.width.rounded()))
        case "height": return String(Int(element.frame.height.rounded()))
        case "index": return node.parent.map { parent in String(nodes[parent].children.firstIndex(of: index) ?? 0) }
        default: return nil
        }
    }

    /// A switch that is on, or a selected cell (value "1").
    func isSelected(_ index: Int) -> Bool {
        let value = nodes[index].snapshot.value
        return value == "1" || value == "true"
    }

    /// What WebDriver's "text" of an element is: its value, else its label (as XCUITest's driver).
    func text(of index: Int) -> String {
        let element = nodes[index].snapshot
        if let value = element.value, !value.isEmpty, element.type != .switch { return value }
        return element.label
    }

    /// How a person names a node in a message: `XCUIElementTypeButton "Sign up"`.
    func describe(_ index: Int) -> String {
        let name = attribute("name", of: index)
        return typeName(of: index) + (name.map { " \"\($0)\"" } ?? "")
    }

    /// What the screen shows, for "the screen has ... instead" in error messages.
    func summary(limit: Int = 12) -> String {
        let names = descendants(of: root).compactMap { index -> String? in
            let element = nodes[index].snapshot
            guard !element.type.isChrome, isVisible(index) else { return nil }
            let name = element.displayName
            return name.isEmpty ? nil : "\(Self.typeName(element.type)) '\(name)'"
        }
        guard !names.isEmpty else { return "The screen shows no named elements." }
        let more = names.count > limit ? " and \(names.count - limit) more" : ""
        return "The screen shows: " + names.prefix(limit).joined(separator: ", ") + more + "."
    }
}
