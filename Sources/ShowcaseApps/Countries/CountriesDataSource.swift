import Foundation

/// A country as the Countries app shows it.
public struct Country: Codable, Equatable, Sendable {
    public var name: String
    public var alpha2Code: String
    public var region: String
    public var subregion: String
    public var population: Int
    public var area: Double?

    public init(name: String, alpha2Code: String, region: String, subregion: String, population: Int, area: Double?) {
        self.name = name; self.alpha2Code = alpha2Code; self.region = region; self.subregion = subregion
        self.population = population; self.area = area
    }

    /// "Northern America, Americas".
    public var regionDescription: String { [subregion, region].filter { !$0.isEmpty }.joined(separator: ", ") }
    /// "36155487 people".
    public var populationDescription: String { "\(population) people" }
    /// "9984670.0 sq km".
    public var areaDescription: String { area.map { "\($0) sq km" } ?? "unknown" }
}

/// Where the Countries app gets its countries: the dependency picked by launch arguments.
public protocol CountriesDataSource: Sendable {
    /// A name for logs and the debug window.
    var name: String { get }
    func countries() throws -> [Country]
}

/// The "remote" source: the countries service's JSON document, read from a file (or the
/// copy the app ships with), decoded as the real service's response would be.
public struct RemoteCountriesDataSource: CountriesDataSource {
    private let load: @Sendable () throws -> Data
    public private(set) var name: String

    /// Reads the document from a file.
    public init(fileURL: URL) {
        name = "remote (\(fileURL.lastPathComponent))"
        load = { try Data(contentsOf: fileURL) }
    }

    /// The countries service's document as the app ships it: `countries.json`, a resource
    /// file read from disk at each load, as a networked source would fetch it.
    public init() {
        self.init(fileURL: Self.bundledDocumentURL)
        name = "remote"
    }

    public static var bundledDocumentURL: URL {
        Bundle.module.url(forResource: "countries", withExtension: "json")!
    }

    public func countries() throws -> [Country] {
        try JSONDecoder().decode([Country].self, from: load()).sorted { $0.name < $1.name }
    }

    /// The shipped document's bytes (to write it to a file).
    public static var bundledDocument: Data {
        get throws { try Data(contentsOf: bundledDocumentURL) }
    }
}

/// Fixed data for tests and demos that must not depend on the service: a few real
/// countries and two that only the mock knows, so a test can tell which source it got.
public struct LocalMockCountriesDataSource: CountriesDataSource {
    public let name = "local-mock"
    public init() {}

    public func countries() throws -> [Country] {
        [
            Country(name: "Atlantis", alpha2Code: "AX", region: "Mock Ocean", subregion: "Sunken Islands", population: 1234, area: 100.0),
            Country(
                name: "Canada", alpha2Code: "CA", region: "Americas", subregion: "Northern America", population: 36_155_487, area: 9984670.0
            ),
            Country(
                name: "El Dorado", alpha2Code: "ED", region: "Americas", subregion: "Legendary South America", population: 1, area: 1.0),
            Country(
                name: "France", alpha2Code: "FR", region: "Europe", subregion: "Western Europe", population: 66_710_000, area: 640679.0),
            Country(name: "Japan", alpha2Code: "JP", region: "Asia", subregion: "Eastern Asia", population: 126_960_000, area: 377930.0),
        ]
    }
}
