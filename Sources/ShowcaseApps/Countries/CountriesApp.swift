import Foundation
import ShowreelRender
import ShowreelUI

/// A list of countries; tapping one pushes its details. Its data source is picked by the
/// launch argument `--countries-datasource NAME`: `local-mock` for fixed data, none for the
/// "remote" source; any other name stops the app with a fatal error.
public enum CountriesApp {
    public static let bundleIdentifier = "dev.showreel.countries"
    public static let datasourceArgument = "--countries-datasource"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Countries") { context in
        let source = try dataSource(for: context)
        let strings = try AppStrings.load("Countries", context: context, bundleIdentifier: bundleIdentifier)
        return makeRootScreen(dataSource: source, strings: strings)
    }
    .openingURLs(schemes: [CountriesLinks.scheme]) { url, root in CountriesLinks.open(url, root: root) }

    /// The data source the launch arguments ask for (created when first asked for).
    public static func dataSourceProvider(for context: LaunchContext) -> Provider<any CountriesDataSource> {
        Provider(
            datasourceArgument, in: context, default: "remote",
            choices: [
                "local-mock": { LocalMockCountriesDataSource() },
                "remote": { RemoteCountriesDataSource() },
            ], unknownMessage: { "Unknown countries datasource requested: \($0)" })
    }

    public static func dataSource(for context: LaunchContext) throws -> any CountriesDataSource {
        try dataSourceProvider(for: context).value()
    }

    /// The list in a navigation controller, in the language of `strings` (English by default).
    public static func makeRootScreen(dataSource: any CountriesDataSource, strings: LocalizedStrings? = nil) -> Screen {
        let strings = strings ?? AppStrings.english("Countries", bundleIdentifier: bundleIdentifier)
        let navigation = NavigationController(rootScreen: CountriesListScreen(dataSource: dataSource, strings: strings))
        navigation.prefersLargeTitles = true
        navigation.layoutDirection = strings.layoutDirection
        return navigation
    }

    /// A colour per region, for the little code badges.
    static func color(for region: String) -> Color {
        switch region {
        case "Americas": return .systemRed
        case "Europe": return .systemBlue
        case "Asia": return .systemOrange
        case "Africa": return .systemGreen
        case "Oceania": return .systemTeal
        default: return .systemPurple
        }
    }
}

/// The list: one row per country with its code badge and a disclosure chevron.
final class CountriesListScreen: Screen {
    let dataSource: any CountriesDataSource
    let strings: LocalizedStrings
    let table = TableView(style: .plain)
    private(set) var countries: [Country] = []

    init(dataSource: any CountriesDataSource, strings: LocalizedStrings) {
        self.dataSource = dataSource
        self.strings = strings
        super.init(title: strings("Countries"))
    }

    override func viewDidLoad() {
        table.accessibilityIdentifier = "countries"
        do {
            countries = try dataSource.countries()
            table.sections = [
                TableSection(
                    rows: countries.map { country in
                        // The identifier stays the English name: tests find a country in every language.
                        TableRow(
                            title: LocalizedCountry(country, strings: strings).name, accessory: .disclosureIndicator,
                            image: RowImage(
                                initials: country.alpha2Code, fill: CountriesApp.color(for: country.region),
                                tint: .white, shape: .circle, size: 28),
                            identifier: country.name
                        ) { [weak self] in self?.show(country) }
                    })
            ]
        } catch {
            table.sections = [TableSection(footer: strings("Could not load countries: %@", String(describing: error)), rows: [])]
        }
        contentView = table
    }

    func show(_ country: Country) {
        navigationController?.push(CountryDetailsScreen(country: country, strings: strings))
    }
}

/// One country's details: name, region, population and area, each identified for tests.
final class CountryDetailsScreen: Screen {
    let country: Country
    let strings: LocalizedStrings
    let table = TableView(style: .insetGrouped)

    init(country: Country, strings: LocalizedStrings) {
        self.country = country
        self.strings = strings
        super.init(title: LocalizedCountry(country, strings: strings).name, background: .groupedBackground)
        largeTitleDisplayMode = .never
    }

    override func viewDidLoad() {
        table.accessibilityIdentifier = "countryDetails"
        let badge = ImageView(
            shape: .circle, fill: CountriesApp.color(for: country.region), tint: .white,
            initials: country.alpha2Code)
        badge.gradientEnd = CountriesApp.color(for: country.region).mixed(with: .black, amount: 0.25)
        table.tableHeaderView = DetailsHeader(badge: badge)
        func row(_ caption: String, _ value: String, _ identifier: String) -> TableRow {
            TableRow(title: caption, detail: value, style: .caption, identifier: identifier + "Row", detailIdentifier: identifier)
        }
        let localized = LocalizedCountry(country, strings: strings)
        table.sections = [
            TableSection(rows: [
                row(strings("Name"), localized.name, "countryName"),
                row(strings("Region"), localized.regionDescription, "countryRegion"),
                row(strings("Population"), localized.populationDescription, "countryPopulation"),
                row(strings("Area"), localized.areaDescription, "countryArea"),
            ])
        ]
        contentView = table
    }
}

/// The badge above a country's details.
final class DetailsHeader: View {
    let badge: ImageView
    init(badge: ImageView) {
        self.badge = badge
        super.init()
        addSubview(badge)
    }
    override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 120) }
    override func layoutSubviews() { badge.frame = Rect(x: bounds.midX - 40, y: 24, width: 80, height: 80) }
}
