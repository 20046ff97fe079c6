import Foundation
import ShowreelRender
import ShowreelUI

/// Maestro's demo app (`e2e/demo_app` in mobile-dev-inc/maestro, Apache-2.0), ported so that
/// Maestro's own flows run unchanged against `com.example.example`: a home screen with a grid
/// of test screens, a counter and a floating add button (`fabAddIcon`), the same texts and
/// identifiers on every screen its flows use, the launch arguments `initialCounter` and `delay`
/// (seconds the add button waits before counting), and the deep link `example://form`.
public enum ExampleApp {
    public static let bundleIdentifier = "com.example.example"
    /// `CFBundleDisplayName` of Maestro's demo app.
    public static let displayName = "Demo App"
    public static let urlScheme = "example"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: displayName) { context in
        let strings = try AppStrings.load("Example", context: context, bundleIdentifier: bundleIdentifier)
        let home = ExampleHomeScreen(
            strings: strings, initialCounter: integer("initialCounter", in: context) ?? 0,
            delay: integer("delay", in: context) ?? 0)
        let navigation = NavigationController(rootScreen: home)
        navigation.layoutDirection = strings.layoutDirection
        return navigation
    }
    .openingURLs(schemes: [urlScheme]) { url, root in open(url, root: root) }

    /// An integer launch argument as the demo app reads it (flutter_launch_arguments reads the
    /// defaults' argument domain on iOS): `-name 3`, which is how Maestro passes
    /// `launchApp: arguments: {name: 3}` to an iOS app; `--name 3` and `name 3` too.
    static func integer(_ name: String, in context: LaunchContext) -> Int? {
        let value = ["-" + name, "--" + name, name].lazy.compactMap { context.option(for: $0) }.first
        return value.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `example://form` pushes the form over whatever shows, as the demo app's link handler
    /// does; other links open nothing.
    static func open(_ url: URL, root: Screen) {
        guard url.scheme?.lowercased() == urlScheme, url.host == "form", let navigation = root as? NavigationController,
            let home = navigation.rootScreenOfStack as? ExampleHomeScreen
        else { return }
        navigation.push(ExampleFormScreen(strings: home.strings), animated: true)
    }
}
