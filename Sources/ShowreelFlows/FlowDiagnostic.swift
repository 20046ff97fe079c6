import Foundation

/// Where something is in a flow file: `path:line:column`, as compilers print it, so editors
/// and CI logs link straight to it.
public struct FlowLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (relative paths stay relative).
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem found in a flow file before anything runs.
public struct FlowDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: FlowLocation
    public var message: String

    public init(_ location: FlowLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// Every problem found in the flows of a run: nothing runs while there is one.
public struct FlowValidationError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [FlowDiagnostic]

    public init(_ diagnostics: [FlowDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
