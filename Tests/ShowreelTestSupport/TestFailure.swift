/// A test's own failure, said in words: a helper that gives up (a timeout, a missing binary).
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
