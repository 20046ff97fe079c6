import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelRender
import ShowreelUI
import ShowreelWire

/// A flow file, parsed and validated: a header (which app, how to launch it, what device) and
/// the steps, in Maestro's layout. Sub-flows (`runFlow`) are parsed into their step.
package struct Flow: Sendable {
    /// Stable across runs: the path as named on the command line (or found in a folder).
    package var id: String
    package var url: URL
    /// The header's `name`, else the file name without its extension.
    package var name: String
    package var appId: String?
    package var arguments: [String]
    package var environment: [String: String]
    package var device: DeviceSettings
    package var tags: [String]
    package var steps: [FlowStep]
    /// The header's `selectors`: the order in which the studio picks a step's selector.
    package var selectorPriority: [SelectorKind]? = nil
    /// The header's `onFlowStart` and `onFlowComplete`: run before the steps, and after them
    /// whether they passed or not (Maestro's hooks).
    package var onFlowStart: [FlowStep] = []
    package var onFlowComplete: [FlowStep] = []

    /// The device a flow runs on: profile, status bar, touch indicators.
    package struct DeviceSettings: Sendable, Equatable {
        package var name: String = "Showreel Phone"
        package var profile: DeviceProfile = .phone
        /// The demo's clean status bar (9:41, full battery) unless the header says otherwise.
        package var statusBar = StatusBarValues()
        package var showsTouches = true
        /// Light or dark, as the device boots (`appearance: dark`; a matrix run's appearance).
        package var appearance: InterfaceStyle = .light
        /// The device's languages (`languages: [de]`; a matrix run's language): what apps use when
        /// launched without `-AppleLanguages`.
        package var languages: [String] = []
        /// Put before the arguments of every launch: a matrix run's `-AppleLanguages (de)
        /// -AppleLocale de_DE`, which a flow's own arguments may still override (the last wins).
        package var launchArguments: [String] = []
        /// How the device is held from the start (`orientation: landscape-left`): the video is
        /// landscape from its first frame, as a landscape App Store preview needs.
        package var orientation: DeviceOrientation = .portrait
    }
}

/// One step, where it is written, and how it reads in the report and in captions.
package struct FlowStep: Sendable {
    package var location: FlowLocation
    /// What the step does: parsed and checked by its grammar, run by `FlowExecution`.
    var command: any FlowCommand
    /// The step as written, in short: `tapOn: "Canada"` (or its `label:`).
    package var title: String
    /// `optional: true`: a failure is logged and the flow goes on (Maestro's warning).
    var isOptional = false

    /// What an element target names: the `tapOn`/`assertVisible` argument.
    package enum Target: Sendable, Equatable, CustomStringConvertible {
        /// An element query (text, id, type, index).
        case element(ElementQuerySpec)
        /// A point on screen, in points or as a fraction of the screen.
        case point(x: Coordinate, y: Coordinate)

        package var description: String {
            switch self {
            case let .element(spec): spec.description
            case let .point(x, y): "\(x),\(y)"
            }
        }
    }

    package enum Coordinate: Sendable, Equatable, CustomStringConvertible {
        case points(Double)
        case fraction(Double)

        package func resolve(in length: Double) -> Double {
            switch self {
            case let .points(value): value
            case let .fraction(value): value * length
            }
        }

        package var description: String {
            switch self {
            case let .points(value): value.formatted()
            case let .fraction(value): (value * 100).formatted() + "%"
            }
        }
    }

    /// The parts of an element query a flow can name (Maestro's selector).
    package struct ElementQuerySpec: Sendable, Equatable, CustomStringConvertible {
        /// Matches the label or the identifier (XCUITest's subscript); a regular expression
        /// matched whole when it has regex operators (Maestro's `text`).
        package var text: String?
        package var id: String?
        package var type: ElementType?
        package var index: Int?
        /// Maestro's states: `enabled`, `checked`, `focused`, `selected`.
        package var enabled: Bool?
        package var checked: Bool?
        package var focused: Bool?
        package var selected: Bool?
        /// Maestro's relative selectors: `below`, `above`, `leftOf`, `rightOf`, `childOf`,
        /// `containsChild`, and `containsDescendants` (each of a list).
        package var relations: [Relation] = []

        package struct Relation: Sendable, Equatable {
            package var kind: RelationKind
            package var anchor: ElementQuerySpec
        }

        package enum RelationKind: String, Sendable, CaseIterable {
            case below, above, leftOf, rightOf, childOf, containsChild, containsDescendants
        }

        package init(text: String? = nil, id: String? = nil, type: ElementType? = nil, index: Int? = nil) {
            self.text = text
            self.id = id
            self.type = type
            self.index = index
        }

        package var description: String {
            var parts: [String] = []
            if let text { parts.append("\"\(text)\"") }
            if let id { parts.append("id \(id)") }
            if let type { parts.append("type \(type)") }
            if let index { parts.append("index \(index)") }
            for (name, value) in [("enabled", enabled), ("checked", checked), ("focused", focused), ("selected", selected)] {
                if let value { parts.append("\(name) \(value)") }
            }
            for relation in relations { parts.append("\(relation.kind.rawValue) (\(relation.anchor))") }
            return parts.joined(separator: ", ")
        }
    }

    // The automation API's words, so a flow and a request say a swipe the same way.
    package typealias Direction = AutomationAPI.Direction
    package typealias Edge = AutomationAPI.Edge

    /// A swipe: across the screen in a direction, on an element, from an edge, or between points.
    package struct Swipe: Sendable {
        package var from: Target?
        package var to: Target?
        package var direction: Direction?
        package var edge: Edge?
        package var duration: Duration
    }
}
