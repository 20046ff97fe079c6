/// Where in a test a device call was made: what its failure is reported at, so a failed tap
/// points at the tap's line rather than the test's first line or the library's.
///
/// Every `Application` and `Element` action takes `fileID`, `filePath`, `line` and `column`
/// parameters defaulting to the caller's position (`#fileID`, `#filePath`, `#line`, `#column`),
/// and builds one of these.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    public var fileID: String
    public var filePath: String
    public var line: Int
    public var column: Int

    public init(fileID: String, filePath: String, line: Int, column: Int) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `Module/File.swift:12:5`.
    public var description: String { "\(fileID):\(line):\(column)" }
}
