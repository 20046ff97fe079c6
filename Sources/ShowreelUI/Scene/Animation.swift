import Foundation
import ShowreelRender

/// How an animation's progress follows time: the fraction of the duration that has passed
/// goes in, the fraction of the change comes out. Pure functions, so a frame at a given
/// time is always the same frame.
public enum AnimationCurve: Sendable, Hashable {
    case linear, easeIn, easeOut, easeInOut
    /// The curve of navigation pushes and sheets: a fast start that settles softly.
    case decelerate

    public func value(at t: Double) -> Double {
        let t = max(0, min(1, t))
        switch self {
        case .linear: return t
        case .easeIn: return t * t * t
        case .easeOut: return 1 - pow(1 - t, 3)
        case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
        case .decelerate: return 1 - pow(1 - t, 4)
        }
    }
}

/// Names an animation so that starting another with the same key replaces it (a switch
/// flipped twice, a scroll view caught by a finger).
public struct AnimationKey: Hashable {
    let owner: ObjectIdentifier
    let name: String
    public init(owner: AnyObject, name: String) { self.owner = ObjectIdentifier(owner); self.name = name }
}

/// A running animation, to cancel it.
public struct AnimationHandle {
    weak var scene: WindowScene?
    let id: Int
    /// Stops the animation where it is; its completion runs with `false`.
    public func cancel() { scene?.cancelAnimation(id: id) }
    public var isRunning: Bool { scene?.animations.contains { $0.id == id } ?? false }
}

/// One animation on the scene clock.
final class RunningAnimation {
    let id: Int
    let key: AnimationKey?
    let start: Duration
    let duration: Duration
    let curve: AnimationCurve
    let update: (Double) -> Void
    let completion: ((Bool) -> Void)?

    init(
        id: Int, key: AnimationKey?, start: Duration, duration: Duration, curve: AnimationCurve,
        update: @escaping (Double) -> Void, completion: ((Bool) -> Void)?
    ) {
        self.id = id; self.key = key; self.start = start; self.duration = duration; self.curve = curve
        self.update = update; self.completion = completion
    }

    var end: Duration { start + duration }

    /// Linear fraction of the duration at `now`, 0...1.
    func fraction(at now: Duration) -> Double {
        guard duration > .zero else { return 1 }
        return max(0, min(1, (now - start).seconds / duration.seconds))
    }
}

/// The standard durations, as iOS uses them.
public enum AnimationDurations {
    public static let push: Duration = .milliseconds(350)
    public static let present: Duration = .milliseconds(450)
    public static let dismiss: Duration = .milliseconds(350)
    public static let keyboard: Duration = .milliseconds(250)
    public static let alertIn: Duration = .milliseconds(200)
    public static let alertOut: Duration = .milliseconds(150)
    public static let switchKnob: Duration = .milliseconds(250)
    public static let highlightFade: Duration = .milliseconds(300)
    public static let touchIndicatorFade: Duration = .milliseconds(200)
    /// The screen turning when the device is turned.
    public static let rotation: Duration = .milliseconds(400)
}
