import Foundation
import Testing

/// How a test is named in files and in the manifest: `Recordings/<Suite>/<test>[ <arguments>].mov`.
public struct TestIdentity: Sendable, Hashable {
    /// The suite's name (nested suites joined with "."), or the module for a free test function.
    public var suite: String
    /// The test function's name, as `canadaDetails()`.
    public var name: String
    /// A parameterised case's arguments, as written in Swift (`"Canada", 2`); empty otherwise.
    public var arguments: String

    public init(suite: String, name: String, arguments: String = "") {
        self.suite = suite
        self.name = name
        self.arguments = arguments
    }

    /// The running test's identity (nil outside a test).
    public static var current: TestIdentity? {
        guard let test = Test.current else { return nil }
        return TestIdentity(test: test, testCase: Test.Case.current)
    }

    init(test: Test, testCase: Test.Case?) {
        let components = test.id.nameComponents
        suite = components.count > 1 ? components.dropLast().joined(separator: ".") : test.id.moduleName
        name = test.name
        arguments = testCase.map(Self.arguments(of:)) ?? ""
    }

    /// "Suite/test()" or "Suite/test() arguments": stable across runs, for the manifest.
    public var id: String { "\(suite)/\(fileStem)" }

    /// The file name without extension: the test's name, then its arguments.
    public var fileStem: String { arguments.isEmpty ? name : "\(name) \(arguments)" }

    /// A path component that is safe on every file system: no separators or control
    /// characters, and not too long (the arguments are shortened first).
    static func safeFileName(_ text: String) -> String {
        var cleaned = String(text.map { "/\\:\0".contains($0) || $0.isNewline || ($0.asciiValue ?? 32) < 32 ? "_" : $0 })
        if cleaned.hasPrefix(".") { cleaned = "_" + cleaned.dropFirst() }
        if cleaned.utf8.count > 120 {
            // FNV-1a, not `hashValue`: Swift seeds that per process, and the name must be the
            // same in every run.
            let digest = text.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
            cleaned = String(cleaned.prefix(110)) + "…" + String(digest & 0xFFFF, radix: 16)
        }
        return cleaned
    }

    /// Swift Testing keeps a case's arguments to itself; reflection reads them for the file
    /// name. An empty string when they cannot be read, and the recorder then numbers the file.
    private static func arguments(of testCase: Test.Case) -> String {
        argumentValues(of: testCase).joined(separator: ", ")
    }

    /// Each of a parameterised case's arguments as text; empty when they cannot be read.
    static func argumentValues(of testCase: Test.Case) -> [String] {
        guard testCase.isParameterized, let arguments = child("arguments", of: testCase) as? any Collection else { return [] }
        return arguments.map { argument -> String in
            String(describing: child("value", of: argument) ?? argument)
        }
    }

    /// The first value labelled `label` in `subject`'s reflection, searched a few levels deep.
    private static func child(_ label: String, of subject: Any, depth: Int = 3) -> Any? {
        let children = Mirror(reflecting: subject).children
        if let match = children.first(where: { $0.label == label }) { return match.value }
        guard depth > 0 else { return nil }
        for child in children { if let found = Self.child(label, of: child.value, depth: depth - 1) { return found } }
        return nil
    }
}
