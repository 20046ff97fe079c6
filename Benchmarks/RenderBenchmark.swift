import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelUI

/// Render cost of the app core: `WindowScene.render` (layout plus Cairo drawing into a BGRA
/// buffer) per frame, for each sample screen at each device profile, for the frames of a
/// navigation push, and for an unchanged frame (dirty tracking skips it: nothing is drawn).
/// Target: a full 1170x2532 frame of the Countries list in under 8 ms (release build).
func renderBenchmarkReport(framesPerScreen: Int = 30) -> String {
    RenderBenchmark(framesPerScreen: framesPerScreen).report()
}

/// True when the Countries list at 1170x2532 renders under the target (for an exit status).
func renderBenchmarkPasses() -> Bool {
    RenderBenchmark(framesPerScreen: 30).countriesAt3x() < RenderBenchmark.targetMilliseconds
}

struct RenderBenchmark {
    static let targetMilliseconds = 8.0
    let framesPerScreen: Int

    /// A sample screen: how to get there from a freshly booted scene.
    struct SampleScreen {
        let name: String
        let setUp: (WindowScene) throws -> Void
    }

    static var screens: [SampleScreen] {
        [
            SampleScreen(name: "Hello") { scene in try launch(HelloApp.definition, in: scene) },
            SampleScreen(name: "Countries list") { scene in try launch(CountriesApp.definition, in: scene) },
            SampleScreen(name: "Countries: Canada") { scene in
                try launch(CountriesApp.definition, in: scene)
                try tap("Canada", in: scene)
                settle(scene)
            },
            SampleScreen(name: "Greeting") { scene in
                try launch(GreetingApp.definition, in: scene)
                try tap("generateGreeting", in: scene)
            },
            SampleScreen(name: "Sign-up with keyboard") { scene in
                try launch(SignUpApp.definition, in: scene)
                settle(scene)
            },
            SampleScreen(name: "Contact card sheet") { scene in
                try launch(SignUpApp.definition, in: scene)
                scene.firstResponder?.resignFirstResponder()
                settle(scene)
                try tap("showContactCard", in: scene)
                settle(scene)
            },
        ]
    }

    func report() -> String {
        var lines = ["Render cost per frame (WindowScene.render: layout + Cairo into BGRA), mean of \(framesPerScreen) frames"]
        let profiles = DeviceProfile.all
        let nameWidth = 28
        var header = "  " + "screen".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        for profile in profiles {
            header +=
                "  " + "\(profile.name) \(profile.pixelWidth)x\(profile.pixelHeight)".padding(toLength: 22, withPad: " ", startingAt: 0)
        }
        lines.append(header)
        var countries3x = Double.nan
        for screen in Self.screens {
            var line = "  " + screen.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            for profile in profiles {
                let cell: String
                if let ms = try? steadyFrame(screen, profile: profile) {
                    cell = String(format: "%.2f ms", ms)
                    if screen.name == "Countries list" && profile == .phoneLarge { countries3x = ms }
                } else {
                    cell = "error"
                }
                line += "  " + cell.padding(toLength: 22, withPad: " ", startingAt: 0)
            }
            lines.append(line)
        }
        var push = "  " + "Push animation, per frame".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
        for profile in profiles {
            let cell = (try? pushFrames(profile: profile)).map { String(format: "%.2f ms x%d", $0.mean, $0.count) } ?? "error"
            push += "  " + cell.padding(toLength: 22, withPad: " ", startingAt: 0)
        }
        lines.append(push)
        let unchanged = (try? unchangedFrame(profile: .phoneLarge)) ?? .nan
        lines.append(String(format: "  Unchanged frame (phone-3x): %.4f ms (renderIfNeeded on a clean scene draws nothing)", unchanged))
        let pass = countries3x < Self.targetMilliseconds
        BenchFigures.shared.record("render.countries_ms_1170x2532", countries3x)
        lines.append(
            String(
                format: "  target: Countries list at 1170x2532 < %.0f ms: %@ (%.2f ms)", Self.targetMilliseconds,
                pass ? "PASS" : "FAIL", countries3x))
        return lines.joined(separator: "\n")
    }

    func countriesAt3x() -> Double {
        (try? steadyFrame(Self.screens[1], profile: .phoneLarge)) ?? .infinity
    }

    /// Mean time to render a screen that is forced dirty each frame (after two warm-up frames).
    func steadyFrame(_ screen: SampleScreen, profile: DeviceProfile) throws -> Double {
        let scene = WindowScene(profile: profile)
        try screen.setUp(scene)
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
        for _ in 0..<2 { scene.setNeedsRender(); scene.render(into: pixels) }
        var total = Duration.zero
        for _ in 0..<framesPerScreen {
            scene.setNeedsRender()
            let start = ContinuousClock.now
            scene.render(into: pixels)
            total += ContinuousClock.now - start
        }
        return Self.milliseconds(total) / Double(framesPerScreen)
    }

    /// Every frame of a push (Countries list to Canada) at 60 frames a second.
    func pushFrames(profile: DeviceProfile) throws -> (mean: Double, count: Int) {
        let scene = WindowScene(profile: profile)
        try Self.launch(CountriesApp.definition, in: scene)
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
        scene.render(into: pixels)
        try Self.tap("Canada", in: scene)
        var total = Duration.zero, frames = 0
        while scene.hasRunningAnimations {
            scene.advanceTime(by: Self.frameInterval)
            guard scene.needsRender else { continue }
            let start = ContinuousClock.now
            scene.render(into: pixels)
            total += ContinuousClock.now - start
            frames += 1
        }
        return (Self.milliseconds(total) / Double(max(frames, 1)), frames)
    }

    /// What a device pays per tick when nothing changed: a `renderIfNeeded` that draws nothing.
    func unchangedFrame(profile: DeviceProfile) throws -> Double {
        let scene = WindowScene(profile: profile)
        try Self.launch(CountriesApp.definition, in: scene)
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
        scene.render(into: pixels)
        let rounds = 10_000
        var drawn = 0
        let start = ContinuousClock.now
        for _ in 0..<rounds where scene.renderIfNeeded(into: pixels) { drawn += 1 }
        let elapsed = ContinuousClock.now - start
        precondition(drawn == 0, "a clean scene rendered")
        return Self.milliseconds(elapsed) / Double(rounds)
    }

    // MARK: Driving a scene

    static let frameInterval = Frame.refreshInterval

    static func launch(_ app: AppDefinition, in scene: WindowScene) throws {
        scene.setAppRootScreen(try app.makeRootScreen(LaunchContext()))
    }

    static func tap(_ identifier: String, in scene: WindowScene) throws {
        let nodes = scene.accessibilityTree().flatMap(\.flattened)
        guard let node = nodes.first(where: { ($0.identifier == identifier || $0.label == identifier) && $0.isHittable }) else {
            throw BenchmarkSetupError(message: "no hittable element \(identifier)")
        }
        scene.touchDown(at: node.frame.center)
        scene.advanceTime(by: .milliseconds(100))
        scene.touchUp(at: node.frame.center)
    }

    static func settle(_ scene: WindowScene) {
        var steps = 0
        while scene.hasRunningAnimations && steps < 600 {
            scene.advanceTime(by: frameInterval)
            steps += 1
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

struct BenchmarkSetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
