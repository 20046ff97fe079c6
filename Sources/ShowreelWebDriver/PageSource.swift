import ShowreelReport

/// Page source as XCUITest's driver writes it: one XML element per node, named after its type
/// (`XCUIElementTypeButton`), with the attributes Appium Inspector shows and xpaths select on.
enum PageSource {
    static func xml(_ tree: PageTree) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(tree.root, of: tree, depth: 0, into: &out)
        return out
    }

    private static func write(_ index: Int, of tree: PageTree, depth: Int, into out: inout String) {
        let indent = String(repeating: "  ", count: depth)
        let name = tree.typeName(of: index)
        out += indent + "<" + name
        for attribute in PageTree.attributeNames {
            guard let value = tree.attribute(attribute, of: index) else { continue }
            out += " \(attribute)=\"\(Markup.escape(value))\""
        }
        let children = tree.nodes[index].children
        if children.isEmpty {
            out += "/>\n"
            return
        }
        out += ">\n"
        for child in children { write(child, of: tree, depth: depth + 1, into: &out) }
        out += indent + "</" + name + ">\n"
    }
}
