import Foundation

/// One combination of a matrix run (`showreel run --language --device --appearance`): the
/// language, device profile and appearance a flow ran with. Its name, `de-phone-dark`, is the
/// folder its videos go into, and what JUnit names and the report's filters show.
package struct RunCell: Codable, Sendable, Hashable, CustomStringConvertible {
    /// A language code: `de`, `pt-BR`.
    package var language: String
    /// A device profile's name: `phone`, `tablet-13`.
    package var device: String
    /// `light` or `dark`.
    package var appearance: String

    package init(language: String, device: String, appearance: String) {
        self.language = language
        self.device = device
        self.appearance = appearance
    }

    /// `<language>-<device>-<appearance>`: `de-phone-dark`.
    package var name: String { "\(language)-\(device)-\(appearance)" }
    package var description: String { name }
}

extension ManifestEntry {
    /// The entry's id without its cell: the flow's path (or the test's name) it ran.
    package var sourceID: String {
        guard let cell, id.hasSuffix(" [\(cell.name)]") else { return id }
        return String(id.dropLast(cell.name.count + 3))
    }

    /// The name with the cell after it, "Countries [de-phone-dark]", as JUnit and the terminal
    /// say it; the plain name outside a matrix.
    package var nameInCell: String { cell.map { "\(name) [\($0.name)]" } ?? name }

    /// `id` for `sourceID` run in `cell`: unique across the cells of a run, stable across runs.
    package static func id(_ sourceID: String, in cell: RunCell?) -> String {
        cell.map { "\(sourceID) [\($0.name)]" } ?? sourceID
    }
}
