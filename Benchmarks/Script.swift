import Foundation
import ShowcaseApps
import ShowreelRender
import ShowreelUI

/// The fixed UI session every encoder in the benchmark records: the Hello sample app, three
/// 60 Hz animations (a banner sliding in, a card rising while it fades in, a progress bar
/// filling while the banner slides out), five button taps, and idle stretches between them.
/// Idle means no change on screen, so no new frame: a VFR recorder holds the last one, a
/// constant-rate recorder repeats it every tick.
struct ScriptedSession {
    enum Segment {
        /// `frames` changed frames, 1/60 s apart, the first one 1/60 s after the segment starts.
        case animation(String, frames: Int, step: (Scene, Double) -> Void)
        /// One tap on the app's button, then `pause` until the next segment.
        case tap(pause: Duration)
        /// Nothing changes for this long.
        case idle(Duration)
    }

    /// The device's screen and the views the script animates on top of the sample app.
    final class Scene {
        let scene: WindowScene
        let banner = View()
        let bannerLabel = Label("Recording in progress", font: .headline, color: .white, alignment: .center)
        let card = View()
        let cardTitle = Label("Showreel benchmark", font: .system(20, weight: .bold))
        let cardBody = Label("Every change is a frame; idle time is free.", font: .body, color: .secondaryLabel)
        let track = View()
        let fill = View()

        init(profile: DeviceProfile) {
            scene = WindowScene(profile: profile)
            let screen = try! HelloApp.definition.makeRootScreen(LaunchContext())
            scene.setAppRootScreen(screen)
            let width = profile.pointSize.width
            banner.backgroundColor = .systemBlue
            banner.cornerRadius = 14
            banner.frame = Rect(x: -width, y: 80, width: width - 48, height: 56)
            bannerLabel.frame = Rect(x: 0, y: 14, width: width - 48, height: 28)
            banner.addSubview(bannerLabel)
            card.backgroundColor = .groupedBackground
            card.cornerRadius = 18
            card.alpha = 0
            card.frame = Rect(x: 24, y: profile.pointSize.height, width: width - 48, height: 150)
            cardTitle.frame = Rect(x: 20, y: 20, width: width - 88, height: 28)
            cardBody.frame = Rect(x: 20, y: 60, width: width - 88, height: 24)
            track.backgroundColor = .separator
            track.cornerRadius = 4
            track.frame = Rect(x: 20, y: 110, width: width - 88, height: 8)
            fill.backgroundColor = .systemGreen
            fill.cornerRadius = 4
            fill.frame = Rect(x: 0, y: 0, width: 0, height: 8)
            track.addSubview(fill)
            for view in [cardTitle, cardBody, track] as [View] { card.addSubview(view) }
            screen.view.addSubview(banner)
            screen.view.addSubview(card)
        }

        /// The centre of the sample app's "Tap me" button, in points.
        var buttonCentre: Point {
            let safe = scene.safeArea
            return Point(x: safe.midX, y: safe.maxY - 120 + 27)
        }
    }

    static let frameInterval = Frame.refreshInterval

    static var segments: [Segment] {
        [
            .idle(.seconds(2)),
            .animation("banner slides in", frames: 60) { s, t in
                let width = s.scene.bounds.width
                s.banner.frame.x = -width + (width + 24) * easeInOut(t)
            },
            .idle(.seconds(3)),
            .tap(pause: .milliseconds(500)), .tap(pause: .milliseconds(500)), .tap(pause: .milliseconds(500)),
            .idle(.seconds(4)),
            .animation("card rises and fades in", frames: 60) { s, t in
                let height = s.scene.bounds.height
                s.card.frame.y = height - (height - 300) * easeInOut(t)
                s.card.alpha = t
            },
            .idle(.seconds(3)),
            .animation("progress fills, banner slides out", frames: 60) { s, t in
                s.fill.frame.width = s.track.frame.width * t
                s.banner.frame.x = 24 + (s.scene.bounds.width) * easeInOut(t)
            },
            .tap(pause: .milliseconds(500)), .tap(pause: .seconds(1)),
            .idle(.seconds(5)),
        ]
    }

    static func easeInOut(_ t: Double) -> Double { t < 0.5 ? 2 * t * t : 1 - pow(-2 * t + 2, 2) / 2 }

    /// One change to apply at a device-clock time.
    struct Event {
        var time: Duration
        var apply: (Scene) -> Void
    }

    /// The events in time order, the first frame's time (zero: the launched app) and the stop time.
    static func timeline() -> (events: [Event], stop: Duration, idle: [ClosedRange<Double>]) {
        var events: [Event] = []
        var now = Duration.zero
        var idle: [ClosedRange<Double>] = []
        for segment in segments {
            switch segment {
            case .animation(_, let frames, let step):
                for index in 1...frames {
                    let t = Double(index) / Double(frames)
                    events.append(Event(time: now + frameInterval * index) { step($0, t) })
                }
                now += frameInterval * frames
            case .tap(let pause):
                events.append(Event(time: now) { s in _ = s.scene.tap(at: s.buttonCentre) })
                now += pause
            case .idle(let length):
                idle.append(now.seconds...(now + length).seconds)
                now += length
            }
        }
        return (events, now, idle)
    }
}

extension Duration {
    var microsecondsValue: Int64 {
        let parts = components
        return parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
    }
}
