import Foundation
import ShowreelUI

/// The sample apps' string catalogs (`Strings/<App>.xcstrings`, shipped as resources).
enum AppStrings {
    /// The strings of catalog `name` for a launch, and the root screen's direction to match.
    static func load(_ name: String, context: LaunchContext, bundleIdentifier: String) throws -> LocalizedStrings {
        let url = Bundle.module.url(forResource: name, withExtension: "xcstrings", subdirectory: "Strings")
        return try LocalizedStrings.load(url, context: context, bundleIdentifier: bundleIdentifier)
    }

    /// English strings for screens built outside a launch (tests, previews).
    static func english(_ name: String, bundleIdentifier: String) -> LocalizedStrings {
        // The catalogs ship with the module: failing to read one is a broken build.
        try! load(name, context: LaunchContext(), bundleIdentifier: bundleIdentifier)
    }
}
