// One import for a UI test: the traits, `Application` and queries, the in-process device, the
// toolkit to write one's own apps, and the sample apps.
@_exported import ShowcaseApps
@_exported import ShowreelDevice
@_exported import ShowreelRecorder
@_exported import ShowreelRender
@_exported import ShowreelTesting
@_exported import ShowreelUI
