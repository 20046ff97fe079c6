import ShowreelUI

/// Every sample app, for a device to register by bundle identifier.
public enum ShowcaseCatalog {
    public static let apps: [AppDefinition] = [HelloApp.definition]
}
