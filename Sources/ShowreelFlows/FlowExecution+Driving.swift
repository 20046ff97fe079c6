import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelWire

/// What commands share to drive the device: actions, targets resolved to queries or points.
extension FlowExecution {
    func act(_ action: DeviceAction) async throws {
        _ = try await device.perform(action)
    }

    /// `spec` with its `${...}` run.
    func resolve(_ spec: FlowStep.ElementQuerySpec) throws -> FlowStep.ElementQuerySpec {
        var spec = spec
        spec.text = try spec.text.map(resolve)
        spec.id = try spec.id.map(resolve)
        for index in spec.relations.indices { spec.relations[index].anchor = try resolve(spec.relations[index].anchor) }
        return spec
    }

    func resolve(_ target: FlowStep.Target) throws -> FlowStep.Target {
        guard case let .element(spec) = target else { return target }
        return .element(try resolve(spec))
    }

    /// Where a tap goes: the element (the device finds its hittable centre) or the point; an
    /// element a device query cannot say (a regex, a state, a relative selector) is found here
    /// and tapped at its centre.
    func touchTarget(_ target: FlowStep.Target) async throws -> DeviceAction.Target {
        if case let .element(spec) = target {
            if spec.needsMatcher { return .point(try await element(spec).frame.center) }
            if await device.elements(Self.query(spec)).isEmpty, let value = await fieldMatch(spec) { return .point(value.frame.center) }
            return .element(Self.query(spec))
        }
        return .point(try await point(target))
    }

    /// A target's point on screen: the element's centre, or the point resolved on this screen.
    func point(_ target: FlowStep.Target) async throws -> Point {
        switch target {
        case let .point(x, y):
            let screen = await device.screenPointSize
            return Point(x: x.resolve(in: screen.width), y: y.resolve(in: screen.height))
        case let .element(spec):
            if spec.needsMatcher { return try await element(spec).frame.center }
            return try await element(spec).frame.center
        }
    }

    /// The elements `spec` matches on the screen now.
    func elements(_ spec: FlowStep.ElementQuerySpec) async -> [ElementSnapshot] {
        if spec.needsMatcher { return SelectorMatcher(roots: await device.tree()).matches(spec) }
        let found = await device.elements(Self.query(spec))
        if found.isEmpty, let value = await fieldMatch(spec) { return [value] }
        return found
    }

    /// Maestro's `text` also finds a field by what is typed in it, or by its placeholder: asked
    /// when the device's own query (label or identifier) found nothing.
    func fieldMatch(_ spec: FlowStep.ElementQuerySpec) async -> ElementSnapshot? {
        guard spec.text != nil else { return nil }
        return SelectorMatcher(roots: await device.tree()).matches(spec).first
    }

    /// The element `spec` matches now, or an error saying what the screen shows.
    func element(_ spec: FlowStep.ElementQuerySpec) async throws -> ElementSnapshot {
        guard spec.needsMatcher else {
            do { return try await device.element(Self.query(spec)) } catch {
                if let value = await fieldMatch(spec) { return value }
                throw error
            }
        }
        guard let found = SelectorMatcher(roots: await device.tree()).matches(spec).first else {
            let texts = await device.tree().flatMap(\.flattened).map(\.displayName).filter { !$0.isEmpty }.prefix(12)
            throw StepFailure(message: "no element matches \(spec) (the screen shows: \(texts.joined(separator: ", ")))")
        }
        return found
    }

    /// Waits (device time) until `spec` matches an element (`present`) or none; whether it did.
    func wait(for spec: FlowStep.ElementQuerySpec, present: Bool, timeout: Duration) async throws -> Bool {
        if !spec.needsMatcher {
            // A field's typed text or placeholder is there at once or not at all for the device's
            // query: looked for before and after the device's own wait.
            if present, await device.elements(Self.query(spec)).isEmpty, await fieldMatch(spec) != nil { return true }
            let matched = try await device.performWait(
                .waitFor(DeviceAction.WaitFor(Self.query(spec), exists: present, timeout: timeout))
            ).matched
            if !matched, present, await fieldMatch(spec) != nil { return true }
            return matched
        }
        let deadline = device.clock.now + timeout
        while true {
            if await !elements(spec).isEmpty == present { return true }
            guard device.clock.now < deadline else { return false }
            try await act(.wait(min(.milliseconds(100), deadline - device.clock.now)))
        }
    }

    /// The device's swipe for a flow's: on an element, from an edge, from a point (or the
    /// screen's centre) in a direction, or between two targets.
    func path(of swipe: FlowStep.Swipe) async throws -> DeviceAction.Swipe.Path {
        if let edge = swipe.edge { return .edge(edge) }
        if let direction = swipe.direction {
            if case let .element(spec) = swipe.from, !spec.needsMatcher { return .element(Self.query(spec), direction) }
            let screen = await device.screenPointSize
            let from = try await swipe.from.asyncMap { try await point($0) } ?? Point(x: screen.width / 2, y: screen.height / 2)
            return .from(from, direction)
        }
        guard let from = swipe.from, let to = swipe.to else {
            throw StepFailure(message: "a swipe needs a direction, an edge, or from and to")
        }
        return .points(from: try await point(from), to: try await point(to))
    }

    static func query(_ spec: FlowStep.ElementQuerySpec) -> ElementQuery {
        ElementQuery(steps: [ElementQuery.Step(type: spec.type, key: spec.text, identifier: spec.id, index: spec.index)])
    }

    static func query(_ target: FlowStep.Target) throws -> ElementQuery {
        return query(try spec(target))
    }

    static func spec(_ target: FlowStep.Target) throws -> FlowStep.ElementQuerySpec {
        guard case let .element(spec) = target else {
            throw StepFailure(message: "a point cannot be checked for visibility: name an element")
        }
        return spec
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
