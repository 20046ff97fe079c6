import Foundation
import ShowreelAccessibility
import ShowreelRender
import ShowreelUI
import Testing

/// Drives a window scene the way a device does: launches an app, taps elements by
/// identifier, lets time pass on the scene clock at 60 frames a second, renders.
public final class SceneHarness {
    public let scene: WindowScene
    public static let frame: Duration = .nanoseconds(16_666_667)

    public init(profile: DeviceProfile = .phone, app: AppDefinition? = nil, arguments: [String] = []) throws {
        scene = WindowScene(profile: profile)
        if let app {
            scene.setAppRootScreen(try app.makeRootScreen(LaunchContext(arguments: arguments)))
        }
    }

    public init(profile: DeviceProfile = .phone, root: Screen) {
        scene = WindowScene(profile: profile)
        scene.setAppRootScreen(root)
    }

    public var elements: [ElementSnapshot] { scene.accessibilityTree().flatMap(\.flattened) }

    public func element(_ identifier: String, type: ElementType? = nil) -> ElementSnapshot? {
        elements.first { ($0.identifier == identifier || $0.label == identifier) && (type == nil || $0.type == type) }
    }

    /// Taps the centre of a hittable element (by identifier or label), holding 100 ms.
    public func tap(_ identifier: String, type: ElementType? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let node = try #require(
            elements.first {
                ($0.identifier == identifier || $0.label == identifier) && (type == nil || $0.type == type) && $0.isHittable
            }, "no hittable element '\(identifier)'", sourceLocation: sourceLocation)
        tap(at: node.frame.center)
    }

    public func tap(at point: Point, hold: Duration = .milliseconds(100)) {
        scene.touchDown(at: point)
        advance(by: hold)
        scene.touchUp(at: point)
    }

    /// A finger drag from one point to another over `duration`, one move per frame.
    public func drag(from start: Point, to end: Point, duration: Duration = .milliseconds(300)) {
        scene.touchDown(at: start)
        let steps = max(1, Int((duration.seconds / Self.frame.seconds).rounded()))
        for step in 1...steps {
            advance(by: Self.frame)
            let t = Double(step) / Double(steps)
            scene.touchMoved(to: Point(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t))
        }
        scene.touchUp(at: end)
    }

    /// Lets time pass one frame at a time.
    public func advance(by duration: Duration) {
        let end = scene.now + duration
        while scene.now + Self.frame < end { scene.advanceTime(to: scene.now + Self.frame) }
        scene.advanceTime(to: end)
        scene.layoutIfNeeded()
    }

    /// Lets time pass until nothing animates.
    public func settle(limit: Duration = .seconds(10)) {
        let end = scene.now + limit
        while scene.hasRunningAnimations && scene.now < end { scene.advanceTime(to: scene.now + Self.frame) }
        scene.layoutIfNeeded()
    }

    /// Types text by tapping keys as planned by `SoftwareKeyboard.keyTaps`.
    public func typeOnKeyboard(_ text: String) throws {
        for key in try SoftwareKeyboard.keyTaps(toType: text, from: scene.keyboardState) {
            let frame = try #require(scene.keyFrame(key), "no key '\(key)'")
            tap(at: frame.center, hold: .milliseconds(60))
            advance(by: .milliseconds(40))
        }
    }

    public func render() -> PixelBuffer {
        let pixels = PixelBuffer(width: scene.profile.pixelWidth, height: scene.profile.pixelHeight)
        scene.render(into: pixels)
        return pixels
    }

    public func save(_ name: String, to folder: String = "/tmp/showreel-ui") {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let data = Data(render().pngData())
        try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".png"))
    }
}
