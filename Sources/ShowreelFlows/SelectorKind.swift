/// The kinds of selector a step's target can be written with, as the studio ranks them (the
/// header's `selectors`): an accessibility identifier, a text, a type with its index, a point.
package enum SelectorKind: String, Sendable, CaseIterable, Codable {
    case id, text, type, point

    /// Identifiers survive translation and copy changes; points survive nothing.
    package static let defaultPriority: [SelectorKind] = [.id, .text, .type, .point]
}
