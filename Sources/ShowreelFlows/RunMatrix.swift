import Foundation
import ShowreelRender
import ShowreelReport

/// The axes of a matrix run (`showreel run --language en,de --device phone,tablet-13
/// --appearance light,dark`): every flow runs once per combination, each combination (a
/// `RunCell`) into its own folder. An axis left empty takes one value: English, the flow's own
/// device, light.
package struct RunMatrix: Sendable, Equatable {
    /// Language codes as `xx` or `xx-YY`, most preferred first in each cell's launch.
    package var languages: [String]
    /// Device profiles; empty runs each flow on the device its header names.
    package var devices: [DeviceProfile]
    package var appearances: [InterfaceStyle]

    /// The matrix of the values given on the command line; throws a sentence naming the bad
    /// value and the valid choices. A value given twice (`dark,dark`, or `pt_BR,pt-BR`, which
    /// are one language) counts once, where it first appears: a cell never runs twice into one
    /// folder.
    package init(languages: [String] = [], devices: [String] = [], appearances: [String] = []) throws(RunMatrixError) {
        self.languages = Self.once(
            try languages.map { code throws(RunMatrixError) in
                guard let normalised = LanguageCode.normalised(code) else { throw .language(code) }
                return normalised
            }, by: \.self)
        self.devices = Self.once(
            try devices.map { name throws(RunMatrixError) in
                guard let profile = DeviceProfile.named(name) else { throw .device(name) }
                return profile
            }, by: \.name)
        self.appearances = Self.once(
            try appearances.map { name throws(RunMatrixError) in
                guard let style = InterfaceStyle(rawValue: name) else { throw .appearance(name) }
                return style
            }, by: \.rawValue)
    }

    /// `values` with each key's first value only, in their order.
    private static func once<Value>(_ values: [Value], by key: (Value) -> String) -> [Value] {
        var seen = Set<String>()
        return values.filter { seen.insert(key($0)).inserted }
    }

    /// No axis given: the run keeps today's layout (no cells, no folders per cell).
    package var isEmpty: Bool { languages.isEmpty && devices.isEmpty && appearances.isEmpty }

    /// One job per flow (no axis given), or per cell and flow, cell by cell in the order the
    /// values were given, with each cell's flows named uniquely within its folder.
    package func jobs(for flows: [Flow]) -> [RunJob] {
        guard !isEmpty else {
            let names = FlowRunner.videoNames(for: flows)
            return zip(flows, names).map { RunJob(id: $0.id, flow: $0, cell: nil, videoName: $1) }
        }
        var jobs: [RunJob] = []
        for language in languages.isEmpty ? ["en"] : languages {
            for device in devices.isEmpty ? [nil] : devices.map(Optional.some) {
                for appearance in appearances.isEmpty ? [.light] : appearances {
                    var byCell: [RunCell: [Flow]] = [:]
                    var order: [RunCell] = []
                    for flow in flows {
                        let cell = RunCell(
                            language: language, device: (device ?? flow.device.profile).name, appearance: appearance.rawValue)
                        if byCell[cell] == nil { order.append(cell) }
                        byCell[cell, default: []].append(Self.flow(flow, in: cell, profile: device, appearance: appearance))
                    }
                    for cell in order {
                        let cellFlows = byCell[cell]!
                        for (flow, name) in zip(cellFlows, FlowRunner.videoNames(for: cellFlows)) {
                            jobs.append(RunJob(id: ManifestEntry.id(flow.id, in: cell), flow: flow, cell: cell, videoName: name))
                        }
                    }
                }
            }
        }
        return jobs
    }

    /// `flow` set up for `cell`: its device booted with the cell's profile, language and
    /// appearance, and every launch given the language's `-AppleLanguages` and `-AppleLocale`.
    static func flow(_ flow: Flow, in cell: RunCell, profile: DeviceProfile?, appearance: InterfaceStyle) -> Flow {
        var flow = flow
        if let profile { (flow.device.profile, flow.device.name) = (profile, profile.displayName) }
        flow.device.appearance = appearance
        flow.device.languages = [cell.language]
        flow.device.launchArguments = LanguageCode.launchArguments(for: cell.language)
        return flow
    }
}

/// One flow to run in one cell (or outside any, in a plain run).
package struct RunJob: Sendable {
    /// The manifest entry's id: the flow's, with the cell after it.
    package var id: String
    /// The flow, with the cell's device settings.
    package var flow: Flow
    package var cell: RunCell?
    /// The video's file name without extension, unique within its folder.
    package var videoName: String

    /// The folder its files go into, relative to the run's output: the cell's name, or "".
    package var folder: String { cell?.name ?? "" }
}

/// A matrix value that is not valid, said with the valid choices.
package enum RunMatrixError: Error, Equatable, CustomStringConvertible {
    case language(String)
    case device(String)
    case appearance(String)

    package var description: String {
        switch self {
        case let .language(code):
            "'\(code)' is not a language code: use the form xx or xx-YY (en, de, ja, ar, pt-BR), comma-separated."
        case let .device(name):
            "Unknown device '\(name)'. Choose from: \(DeviceProfile.all.map(\.name).joined(separator: ", "))."
        case let .appearance(name):
            "Unknown appearance '\(name)'. Choose from: \(InterfaceStyle.allCases.map(\.rawValue).joined(separator: ", "))."
        }
    }
}
