// swift-tools-version: 6.2
import PackageDescription

// Imports point one way: Render <- UI <- Device; Render <- Recorder; Wire is the shared
// wire vocabulary (bodies and routes); HTTP is the servers' side of it (Device, Host);
// Testing talks to devices and hosts only through Wire and HTTP requests. X11 (an X display as a
// frame source) knows Graphics and Wire only; the CLI hands its frames to the Recorder.
let package = Package(
    name: "Showreel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "showreel", targets: ["showreel"]),
        // Every `showreel` verb as a library: a package's own executable runs them with its apps
        // (`ShowreelCommand.main(apps:)`); the bundled `showreel` is that with the sample apps.
        .library(name: "ShowreelCLI", targets: ["ShowreelCLI"]),
        // The toolkit an app is written on, for a package's app target (no test frameworks).
        .library(name: "ShowreelUI", targets: ["ShowreelUI"]),
        // Everything a UI test needs in one import: traits, Application, the in-process device,
        // the toolkit and the sample apps.
        .library(name: "ShowreelKit", targets: ["ShowreelKit"]),
        // The light client for a test that drives an external device or host: no Cairo, no
        // HTTP server, no FFmpeg.
        .library(name: "ShowreelTesting", targets: ["ShowreelTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavcodec libavformat libavutil libswscale libswresample",
            providers: [
                .apt(["libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"]),
                .brew(["ffmpeg"]),
            ]
        ),
        // libyuv: SIMD frame shrinking and BGRA -> YUV conversion for the recorder (Linux; on
        // macOS Cairo and swscale do the same, slower).
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        // The X client libraries (xcb with its shm, damage and xfixes extensions): recording X displays.
        .systemLibrary(
            name: "CXCB",
            pkgConfig: "xcb xcb-shm xcb-damage xcb-xfixes xcb-xinput",
            providers: [
                .apt(["libxcb1-dev", "libxcb-shm0-dev", "libxcb-damage0-dev", "libxcb-xfixes0-dev", "libxcb-xinput-dev"]),
                .brew(["libxcb"]),
            ]
        ),
        // JavaScriptCore's C API for Maestro's `${...}` and scripts: Debian's javascriptcoregtk on
        // Linux, the system framework on macOS (the shim declares the time limit on both).
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // Cairo draws; PangoCairo lays out and shapes text (HarfBuzz), with fontconfig fallback;
        // libpng writes screenshots (its fast settings, five times quicker than Cairo's writer),
        // libjpeg-turbo a trace's thumbnails (four times quicker than FFmpeg's mjpeg).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo pangocairo libpng libjpeg",
            providers: [
                .apt(["libcairo2-dev", "libpango1.0-dev", "libpng-dev", "libjpeg-dev"]),
                .brew(["cairo", "pango", "libpng", "jpeg-turbo"]),
            ]
        ),
        // Value types (geometry, colours, pixel buffers, frames, profiles): no Cairo, so the light
        // test client builds without it. ShowreelRender draws them with Cairo.
        .target(name: "ShowreelGraphics"),
        .target(
            name: "ShowreelRender",
            dependencies: [
                "CCairo", "ShowreelGraphics", .target(name: "CYUV", condition: .when(platforms: [.linux])),
            ]),
        .target(
            name: "ShowreelRecorder",
            dependencies: [
                "ShowreelWire", "ShowreelGraphics",
                "CFFmpeg", "ShowreelRender", .product(name: "Logging", package: "swift-log"),
                .target(name: "CYUV", condition: .when(platforms: [.linux])),
            ]),
        // The accessibility vocabulary (element snapshots and XCUITest-style queries), shared by
        // the toolkit that describes itself and the tests that ask.
        .target(name: "ShowreelAccessibility", dependencies: ["ShowreelGraphics"]),
        .target(name: "ShowreelUI", dependencies: ["ShowreelRender", "ShowreelGraphics", "ShowreelAccessibility"]),
        .target(name: "ShowreelWire", dependencies: ["ShowreelGraphics", "ShowreelAccessibility"]),
        // An X display (Xvfb, Xorg) as one more display stream source for the recorder: frames on
        // damage through shared memory, the pointer drawn in. No FFmpeg, no Cairo.
        .target(name: "ShowreelX11", dependencies: ["CXCB", "ShowreelGraphics", "ShowreelWire"]),
        // The servers' HTTP layer (Hummingbird): JSON answers, strict JSON bodies, errors as
        // responses, and serving the routes ShowreelWire defines for servers and clients alike.
        .target(
            name: "ShowreelHTTP",
            dependencies: [
                "ShowreelWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .target(
            name: "ShowreelDevice",
            dependencies: [
                "ShowreelUI", "ShowreelWire", "ShowreelHTTP", "ShowreelAccessibility", "ShowreelRender", "ShowreelGraphics",
                // Decodes the pictures and videos added to the photo library (`addmedia`).
                "ShowreelRecorder",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .target(
            name: "ShowreelHost",
            dependencies: [
                "ShowreelWire", "ShowreelHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        .target(name: "ShowreelTesting", dependencies: ["ShowreelWire", "ShowreelAccessibility", "ShowreelGraphics"]),
        // `showreel webdriver`: an Appium-compatible W3C WebDriver server. Requests become the
        // actions of an in-process Device, or of a booted one through DeviceClient.
        .target(
            name: "ShowreelWebDriver",
            dependencies: [
                "ShowreelDevice", "ShowreelTesting", "ShowreelHTTP", "ShowreelRecorder", "ShowreelRender", "ShowreelReport",
                "ShowreelAccessibility", "ShowreelWire", "ShowreelUI", "ShowreelSession", "ShowreelTrace",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .target(
            name: "ShowreelKit",
            dependencies: [
                "ShowreelTesting", "ShowreelDevice", "ShowreelRecorder", "ShowreelReport", "ShowcaseApps", "ShowreelUI", "ShowreelTrace",
                "ShowreelRender", "ShowreelSession", "ShowreelGraphics", "ShowreelWire", "ShowreelAccessibility",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // One device recorded into one video with its actions traced: in this process (a recorded
        // test, a flow) or in another through its display stream and automation API (a recorded
        // test of an external device, a WebDriver session on an attached one).
        .target(
            name: "ShowreelSession",
            dependencies: [
                "ShowreelDevice", "ShowreelRecorder", "ShowreelRender", "ShowreelReport", "ShowreelTrace", "ShowreelGraphics",
                "ShowreelWire", "ShowreelTesting",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "ShowcaseApps", dependencies: ["ShowreelUI", "ShowreelRender"],
            resources: [.copy("Countries/countries.json"), .copy("Strings")]),
        .target(name: "ShowreelReport", dependencies: ["ShowreelWire"]),
        // What a recording's device did, step by step, as the report's trace (pictures as JPEG).
        .target(
            name: "ShowreelTrace",
            dependencies: [
                "ShowreelDevice", "ShowreelRecorder", "ShowreelReport", "ShowreelAccessibility", "ShowreelGraphics", "ShowreelTesting",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `showreel diff`: two runs compared video by video (decoding, pixels, pictures).
        .target(name: "ShowreelDiff", dependencies: ["ShowreelRecorder", "ShowreelRender", "ShowreelReport", "ShowreelGraphics"]),
        // YAML flows: parsed and validated before anything runs, then run on in-process devices.
        // A JavaScript context for flows: expressions, scripts, `output`, a seeded Math.random,
        // the device's clock as Date, a time limit; no file system or processes.
        .target(
            name: "ShowreelScript",
            dependencies: ["CJavaScriptCore"],
            linkerSettings: [.linkedFramework("JavaScriptCore", .when(platforms: [.macOS]))]),
        .target(
            name: "ShowreelFlows",
            dependencies: [
                "ShowreelScript",
                "ShowreelDevice", "ShowreelRecorder", "ShowreelRender", "ShowreelReport", "ShowreelAccessibility", "ShowreelWire",
                "ShowreelTrace", "ShowreelSession", "ShowreelGraphics", "ShowreelUI",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `showreel studio`: a page on loopback with the live screen of an in-process device, where
        // what you do is recorded as flow steps (run through the flow runner `showreel run` uses).
        .target(
            name: "ShowreelStudio",
            dependencies: [
                "ShowreelFlows", "ShowreelDevice", "ShowreelHTTP", "ShowreelAccessibility", "ShowreelGraphics", "ShowreelRender",
                "ShowreelReport", "ShowreelUI", "ShowreelWire", "ShowreelRecorder",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The CLI (swift-argument-parser): every verb, run with the apps it is given; the only code
        // that prints or chooses exit codes.
        .target(
            name: "ShowreelCLI",
            dependencies: [
                "ShowreelRecorder", "ShowreelDevice", "ShowreelHost", "ShowreelTesting", "ShowreelReport",
                "ShowreelAccessibility", "ShowreelFlows", "ShowreelDiff", "ShowreelX11", "ShowreelWebDriver", "ShowreelGraphics",
                "ShowreelRender", "ShowreelUI", "ShowreelWire", "ShowreelTrace", "ShowreelStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The bundled `showreel`: ShowreelCLI with the sample apps.
        .executableTarget(name: "showreel", dependencies: ["ShowreelCLI", "ShowcaseApps"]),
        // `make bench`: figures and ratios against the alternatives, in one run (release build).
        .executableTarget(
            name: "showreel-bench",
            dependencies: [
                "ShowreelRecorder", "ShowreelRender", "ShowreelUI", "ShowreelDevice", "ShowreelWire", "ShowcaseApps",
                "ShowreelAccessibility",
                "ShowreelFlows", "ShowreelReport", "ShowreelX11", "ShowreelDiff", "ShowreelWebDriver", "ShowreelTesting", "ShowreelStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Benchmarks"),
        // Helpers the test targets share: temporary folders and workspaces, child processes, build
        // product paths, `eventually`, synthetic frames, ffprobe, the scene harness, an in-process
        // host, a test Xvfb. ExternalDeviceTests stays without it: the light client only.
        .target(
            name: "ShowreelTestSupport",
            dependencies: [
                "ShowreelGraphics", "ShowreelWire", "ShowreelAccessibility", "ShowreelRender", "ShowreelUI", "ShowreelHost", "ShowreelX11",
                "ShowreelRecorder", "CXCB",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Tests/ShowreelTestSupport"),
        // One test target per library module, holding that module's tests.
        .testTarget(name: "ShowreelGraphicsTests", dependencies: ["ShowreelGraphics"]),
        .testTarget(name: "ShowreelRenderTests", dependencies: ["ShowreelRender", "ShowreelTestSupport"]),
        .testTarget(name: "ShowreelAccessibilityTests", dependencies: ["ShowreelAccessibility", "ShowreelGraphics"]),
        .testTarget(name: "ShowreelWireTests", dependencies: ["ShowreelWire", "ShowreelTestSupport"]),
        .testTarget(name: "ShowreelHTTPTests", dependencies: ["ShowreelHTTP"]),
        .testTarget(name: "ShowreelReportTests", dependencies: ["ShowreelReport"]),
        .testTarget(name: "ShowreelScriptTests", dependencies: ["ShowreelScript", "ShowreelTestSupport"]),
        .testTarget(
            name: "ShowreelUITests",
            dependencies: [
                "ShowreelUI", "ShowreelRender", "ShowcaseApps", "ShowreelAccessibility", "ShowreelTestSupport",
            ]),
        .testTarget(
            name: "ShowcaseAppsTests",
            dependencies: [
                "ShowcaseApps", "ShowreelUI", "ShowreelRender", "ShowreelAccessibility", "ShowreelTestSupport",
            ]),
        .testTarget(name: "ShowreelX11Tests", dependencies: ["ShowreelX11", "ShowreelGraphics", "ShowreelWire", "ShowreelTestSupport"]),
        .testTarget(
            name: "ShowreelRecorderTests",
            dependencies: [
                "ShowreelRecorder", "ShowreelRender", "ShowreelGraphics", "ShowreelWire", "ShowreelTestSupport", "CFFmpeg",
            ]),
        .testTarget(
            name: "ShowreelDeviceTests",
            dependencies: [
                "ShowreelDevice", "ShowcaseApps", "ShowreelWire", "ShowreelUI", "ShowreelRender", "ShowreelTesting",
                "ShowreelAccessibility", "ShowreelTrace", "ShowreelReport",
                "ShowreelTestSupport",
            ]),
        .testTarget(
            name: "ShowreelHostTests",
            dependencies: [
                "ShowreelHost", "ShowreelHTTP", "ShowreelTesting", "ShowreelWire", "ShowreelTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(name: "ShowreelTestingTests", dependencies: ["ShowreelTesting", "ShowreelHost", "ShowreelTestSupport"]),
        .testTarget(
            name: "ShowreelTraceTests",
            dependencies: [
                "ShowreelTrace", "ShowreelDevice", "ShowreelReport", "ShowreelAccessibility", "ShowreelGraphics", "ShowreelTestSupport",
            ]),
        .testTarget(name: "ShowreelDiffTests", dependencies: ["ShowreelDiff", "ShowreelReport", "ShowreelGraphics"]),
        .testTarget(
            name: "ShowreelFlowsTests",
            dependencies: [
                "ShowreelFlows", "ShowreelReport", "ShowreelWire", "ShowreelRecorder", "ShowreelDevice", "ShowreelRender", "ShowcaseApps",
                "ShowreelAccessibility", "ShowreelUI", "ShowreelTestSupport",
            ]),
        .testTarget(
            name: "ShowreelSessionTests",
            dependencies: [
                "ShowreelSession", "ShowreelDevice", "ShowreelRecorder", "ShowreelReport", "ShowreelTrace", "ShowreelTesting",
                "ShowreelWire",
                "ShowcaseApps", "ShowreelGraphics", "ShowreelTestSupport",
            ]),
        .testTarget(name: "ShowreelKitTests", dependencies: ["ShowreelKit", "ShowreelReport", "ShowreelRender", "ShowreelTestSupport"]),
        // The project's own UI tests, written as a user writes them: ShowreelKit only.
        .testTarget(name: "ShowcaseUITests", dependencies: ["ShowreelKit"]),
        .testTarget(
            name: "ShowreelStudioTests",
            dependencies: [
                "ShowreelStudio", "ShowreelFlows", "ShowreelAccessibility", "ShowreelGraphics", "ShowreelDevice", "ShowcaseApps",
                "ShowreelTestSupport",
            ]),
        .testTarget(name: "ShowreelWebDriverTests", dependencies: ["ShowreelWebDriver", "ShowreelAccessibility", "ShowreelGraphics"]),
        // A test that drives a device booted with `showreel device boot`: the light client only.
        .testTarget(name: "ExternalDeviceTests", dependencies: ["ShowreelTesting"]),
        // Across modules and processes: the CLI, real signals, real files, a real Xvfb and browser.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ShowreelDevice", "ShowcaseApps", "ShowreelTesting", "ShowreelRecorder", "ShowreelAccessibility", "ShowreelReport",
                "ShowreelX11", "ShowreelWire", "ShowreelRender", "ShowreelGraphics", "ShowreelTestSupport",
            ]),
    ]
)

// Every Swift target imports each module whose members it uses (SE-0444), not only those it
// names: what a file depends on is written at its top.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
