import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// Maestro's `when:` and `while:`: every part given must hold: `visible` and `notVisible`
/// (a selector, looked at now), `true` (an expression's value, true as Maestro reads it) and
/// `platform` (`iOS` on a Showreel device).
struct FlowCondition: Sendable, Equatable {
    var visible: FlowStep.ElementQuerySpec?
    var notVisible: FlowStep.ElementQuerySpec?
    var script: String?
    var platform: String?

    static let keys = ["visible", "notVisible", "true", "platform"]

    var description: String {
        var parts: [String] = []
        if let visible { parts.append("\(visible) is visible") }
        if let notVisible { parts.append("\(notVisible) is not visible") }
        if let script { parts.append(script) }
        if let platform { parts.append("on \(platform)") }
        return parts.joined(separator: " and ")
    }

    func holds(in execution: FlowExecution) async throws -> Bool {
        if let platform, platform.lowercased() != "ios" { return false }
        if let visible, await execution.elements(try execution.resolve(visible)).isEmpty { return false }
        if let notVisible, await !execution.elements(try execution.resolve(notVisible)).isEmpty { return false }
        if let script, !FlowExecution.isTrue(try execution.resolve(script)) { return false }
        return true
    }
}

extension FileParser {
    func condition(_ node: Node, field: String) -> FlowCondition? {
        guard let fields = mapping(node, field: field, allowed: FlowCondition.keys) else { return nil }
        var condition = FlowCondition()
        func selector(_ key: String) -> FlowStep.ElementQuerySpec?? {
            guard let value = fields[key] else { return .some(nil) }
            guard let (target, _) = target(value, step: key) else { return nil }
            guard case let .element(spec) = target else {
                fail(location(value), "'\(key)' names an element, not a point")
                return nil
            }
            return spec
        }
        guard let visible = selector("visible"), let notVisible = selector("notVisible") else { return nil }
        (condition.visible, condition.notVisible) = (visible, notVisible)
        if let value = fields["true"] { condition.script = string(value, field: "true") }
        if let value = fields["platform"], let name = string(value, field: "platform") {
            let platforms = ["iOS", "Android", "Web"]
            guard let known = platforms.first(where: { $0.lowercased() == name.lowercased() }) else {
                fail(location(value), "unknown platform '\(name)'\(Spelling.hint(for: name, in: platforms)) (platforms: iOS, Android, Web)")
                return nil
            }
            condition.platform = known
        }
        guard !fields.isEmpty else {
            fail(location(node), "\(field) needs one of \(FlowCondition.keys.joined(separator: ", "))")
            return nil
        }
        return condition
    }
}
