#if DEBUG
import Foundation

/// One entry of the debug window (Babylon's pattern): a title and what it does.
public struct DebugAction {
    /// How an action finishes: `finish(.success(()))` or `finish(.failure(error))`, now or
    /// later on the scene clock (`scene.after(_:perform:)`), so recordings stay deterministic.
    public typealias Producer = (_ finish: @escaping (Result<Void, any Error>) -> Void) -> Void

    public enum Kind {
        /// Runs a closure; the window closes.
        case simple(() -> Void)
        /// Starts asynchronous work. A failure shows an alert with the error's text and the
        /// window stays; on success the window closes when `shouldDismiss`.
        case producer(Producer, shouldDismiss: Bool)
        /// The window presents the screen the factory makes.
        case modal(() -> Screen)
    }

    public var title: String
    public var kind: Kind
    /// Offered on every screen above the one that declares it, not only there.
    public var isUbiquitous: Bool
    /// A shake runs this action (of the top-most screen) instead of opening the window.
    public var isPreferredForShake: Bool

    public init(title: String, kind: Kind, isUbiquitous: Bool = false, isPreferredForShake: Bool = false) {
        self.title = title
        self.kind = kind
        self.isUbiquitous = isUbiquitous
        self.isPreferredForShake = isPreferredForShake
    }

    public static func simple(
        _ title: String, isUbiquitous: Bool = false, isPreferredForShake: Bool = false,
        _ run: @escaping () -> Void
    ) -> DebugAction {
        DebugAction(title: title, kind: .simple(run), isUbiquitous: isUbiquitous, isPreferredForShake: isPreferredForShake)
    }

    public static func producer(
        _ title: String, shouldDismiss: Bool = true, isUbiquitous: Bool = false,
        isPreferredForShake: Bool = false, _ start: @escaping Producer
    ) -> DebugAction {
        DebugAction(
            title: title, kind: .producer(start, shouldDismiss: shouldDismiss), isUbiquitous: isUbiquitous,
            isPreferredForShake: isPreferredForShake)
    }

    public static func modal(
        _ title: String, isUbiquitous: Bool = false, isPreferredForShake: Bool = false,
        _ makeScreen: @escaping () -> Screen
    ) -> DebugAction {
        DebugAction(title: title, kind: .modal(makeScreen), isUbiquitous: isUbiquitous, isPreferredForShake: isPreferredForShake)
    }

    /// The text an alert shows for a failed producer: the error's own description.
    static func body(of error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}

/// A screen that offers debug actions while it is on screen.
public protocol DebugActionsProviding: AnyObject {
    /// Read when the debug window opens, never kept after it closes.
    var debugActions: [DebugAction] { get }
}

extension DebugAction {
    /// What the debug window lists over `scene`'s app: the top-most screen's own actions,
    /// then the ubiquitous actions of the screens below it, nearest first, down to the root.
    public static func collect(in scene: WindowScene) -> [DebugAction] {
        let top = scene.topMostScreen
        let own = (top as? DebugActionsProviding)?.debugActions ?? []
        let below = scene.screensFromTop.filter { $0 !== top }
        return own + below.flatMap { (($0 as? DebugActionsProviding)?.debugActions ?? []).filter(\.isUbiquitous) }
    }

    /// The action a shake runs: the top-most screen's own one preferred for shake (the
    /// ubiquitous ones below it do not count).
    public static func preferredForShake(in scene: WindowScene) -> DebugAction? {
        ((scene.topMostScreen as? DebugActionsProviding)?.debugActions ?? []).first(where: \.isPreferredForShake)
    }
}

/// A line of the debug window's Quick Info (environment, version, the session's user).
public struct DebugInfoItem: Equatable, Sendable {
    public var title: String
    public var value: String
    public init(_ title: String, _ value: String) { self.title = title; self.value = value }

    /// The Quick Info as the Share button sends it: one "Title: value" line each.
    public static func text(of items: [DebugInfoItem]) -> String {
        items.map { "\($0.title): \($0.value)" }.joined(separator: "\n")
    }
}
#endif
