import ShowreelAccessibility
import ShowreelGraphics

/// An element as the page reads it: its attributes, its frame in points, and its path (the
/// element's identity, for asking its selectors).
struct TreeNode: Codable, Sendable {
    var path: String
    var type: String
    var id: String
    var label: String
    var value: String?
    var placeholder: String?
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var enabled: Bool
    var hittable: Bool
    var children: [TreeNode]

    static func nodes(_ elements: [ElementSnapshot], parent: [Int] = []) -> [TreeNode] {
        elements.enumerated().map { position, element in
            let path = parent + [position]
            return TreeNode(
                path: path.map(String.init).joined(separator: "."), type: element.type.rawValue, id: element.identifier,
                label: element.label, value: element.value, placeholder: element.placeholder, x: element.frame.minX,
                y: element.frame.minY, width: element.frame.width, height: element.frame.height, enabled: element.isEnabled,
                hittable: element.isHittable, children: nodes(element.children, parent: path))
        }
    }

    /// "0.2.1" as a path; nil for anything else.
    static func path(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.map { $0! }
    }
}
