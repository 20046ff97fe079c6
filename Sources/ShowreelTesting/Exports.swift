// What a test names comes with `import ShowreelTesting`: app states, status bar overrides,
// element types and queries, actions, points and rects.
@_exported import ShowreelAccessibility
@_exported import ShowreelGraphics
@_exported import ShowreelWire
