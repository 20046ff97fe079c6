import ShowreelUI

/// Every sample app, for a device to register by bundle identifier.
public enum ShowcaseCatalog {
    public static let apps: [AppDefinition] = [
        HelloApp.definition, CountriesApp.definition, GreetingApp.definition, SignUpApp.definition,
        MailApp.definition, PlacesApp.definition, ExampleApp.definition,
    ]

    public static func app(_ bundleIdentifier: String) -> AppDefinition? {
        apps.first { $0.bundleIdentifier == bundleIdentifier }
    }
}
