import Foundation

/// How a target reads in captions: “Canada”, or its selector.
extension FlowStep {
    static func quoted(_ target: Target) -> String {
        if case let .element(spec) = target, let text = spec.text { return "“\(text)”" }
        return target.description
    }
}
