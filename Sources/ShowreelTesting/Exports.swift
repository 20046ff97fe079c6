// What a test names comes with `import ShowreelTesting`: app states, status bar overrides,
// element types and queries, points and rects.
@_exported import ShowreelAccessibility
@_exported import ShowreelGraphics
@_exported import ShowreelWire
// Actions take the caller's `SourceLocation` (`#_sourceLocation`), which expands in the test's
// own file: Swift Testing must be visible there, XCTest tests included.
@_exported import Testing
