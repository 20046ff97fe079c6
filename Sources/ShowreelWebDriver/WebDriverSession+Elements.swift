import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelRender

/// The element commands: click, send keys, clear, and what an element says about itself.
extension WebDriverSession {
    func click(_ id: String) async throws(WebDriverError) {
        let (tree, index) = try await resolve(id)
        try await device.tap(try actionQuery(index, in: tree), count: 1)
    }

    /// Types `text` into the element on the software keyboard, special keys included: the
    /// element is tapped first, to focus it.
    func sendKeys(_ text: String, to id: String) async throws(WebDriverError) {
        let pieces = try WebDriverKeys.pieces(text)
        let (tree, index) = try await resolve(id)
        let query = try actionQuery(index, in: tree)
        var focused = false
        for piece in pieces {
            switch piece {
            case let .text(run):
                try await device.type(run, into: focused ? nil : query)
            case let .key(key):
                if !focused { try await device.tap(query, count: 1) }
                try await device.key(key)
            }
            focused = true
        }
        if pieces.isEmpty { try await device.tap(query, count: 1) }
    }

    /// Empties a text field: focuses it, then deletes its text key by key.
    func clear(_ id: String) async throws(WebDriverError) {
        let (tree, index) = try await resolve(id)
        let element = tree.nodes[index].snapshot
        guard [.textField, .secureTextField].contains(element.type) else {
            throw WebDriverError(.invalidElementState, "\(tree.describe(index)) is not a text field, so it cannot be cleared.")
        }
        let text = element.value ?? ""
        try await device.tap(try actionQuery(index, in: tree), count: 1)
        for _ in 0..<text.count { try await device.key("delete") }
    }

    func text(_ id: String) async throws(WebDriverError) -> String {
        let (tree, index) = try await resolve(id)
        return tree.text(of: index)
    }

    /// An attribute as Appium's XCUITest driver answers it (`rect` as JSON text); nil when none.
    func attribute(_ name: String, of id: String) async throws(WebDriverError) -> JSONValue {
        let (tree, index) = try await resolve(id)
        if name == "rect" {
            let frame = tree.nodes[index].snapshot.frame
            let rect: JSONValue = [
                "x": .number(frame.minX), "y": .number(frame.minY), "width": .number(frame.width), "height": .number(frame.height),
            ]
            return .string(String(decoding: rect.encoded(), as: UTF8.self))
        }
        return JSONValue(tree.attribute(name, of: index))
    }

    func name(_ id: String) async throws(WebDriverError) -> String {
        let (tree, index) = try await resolve(id)
        return tree.typeName(of: index)
    }

    func rect(_ id: String) async throws(WebDriverError) -> JSONValue {
        let (tree, index) = try await resolve(id)
        let frame = tree.nodes[index].snapshot.frame
        return ["x": .number(frame.minX), "y": .number(frame.minY), "width": .number(frame.width), "height": .number(frame.height)]
    }

    func flag(_ flag: String, of id: String) async throws(WebDriverError) -> Bool {
        let (tree, index) = try await resolve(id)
        switch flag {
        case "displayed": return tree.isVisible(index)
        case "enabled": return tree.nodes[index].snapshot.isEnabled
        default: return tree.isSelected(index)
        }
    }

    /// The screen as PNG, or the element's part of it.
    func screenshotPNG(of id: String? = nil) async throws(WebDriverError) -> [UInt8] {
        guard let id else { return try await device.screenshotPNG() }
        let pixels = try await device.screenshot()
        let (tree, index) = try await resolve(id)
        let scale = Double(device.profile.scale)
        let frame = tree.nodes[index].snapshot.frame
        let x0 = max(0, Int((frame.minX * scale).rounded())), y0 = max(0, Int((frame.minY * scale).rounded()))
        let x1 = min(pixels.width, Int((frame.maxX * scale).rounded())), y1 = min(pixels.height, Int((frame.maxY * scale).rounded()))
        guard x1 > x0, y1 > y0 else {
            throw WebDriverError(.elementNotInteractable, "\(tree.describe(index)) is not on the screen, so it has no picture.")
        }
        let crop = PixelBuffer(width: x1 - x0, height: y1 - y0, zeroed: false)
        pixels.withUnsafeBytes { source in
            crop.withUnsafeMutableBytes { target in
                for row in 0..<(y1 - y0) {
                    let from = (y0 + row) * pixels.bytesPerRow + x0 * 4
                    target.baseAddress!.advanced(by: row * crop.bytesPerRow)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: (x1 - x0) * 4)
                }
            }
        }
        return crop.pngData()
    }

    /// The query a device action on the node takes; the application itself takes none.
    func actionQuery(_ index: Int, in tree: PageTree) throws(WebDriverError) -> ElementQuery {
        guard !tree.nodes[index].isApplication else {
            throw WebDriverError(
                .elementNotInteractable, "The application element cannot be tapped or typed into; find an element inside it.")
        }
        return ElementReference.query(for: index, in: tree)
    }
}
