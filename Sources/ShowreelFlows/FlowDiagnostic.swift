import Foundation

/// Where something is in a flow file: `path:line:column`, as compilers print it, so editors
/// and CI logs link straight to it.
package struct FlowLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (relative paths stay relative).
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }
}

/// One problem found in a flow file before anything runs.
package struct FlowDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    package var location: FlowLocation
    package var message: String

    package init(_ location: FlowLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    package var description: String { "\(location): \(message)" }
}

/// Every problem found in the flows of a run: nothing runs while there is one.
package struct FlowValidationError: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [FlowDiagnostic]

    package init(_ diagnostics: [FlowDiagnostic]) { self.diagnostics = diagnostics }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
