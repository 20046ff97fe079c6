import ShowreelUI

/// A country as the app shows it in the launch's language: its name from the locale's region
/// names (Kanada, カナダ, كندا) unless the catalog names it (countries only the mock knows),
/// regions from the catalog, numbers in the locale's digits and grouping. In the source language
/// every text is the data's own ("36155487 people", "9984670.0 sq km"), as the seed app showed it
/// and its tests assert verbatim.
struct LocalizedCountry {
    let country: Country
    let strings: LocalizedStrings

    init(_ country: Country, strings: LocalizedStrings) {
        self.country = country
        self.strings = strings
    }

    /// The data's own name in the source language (the service's spelling); else the catalog's
    /// name, or the locale's name for the country's code.
    var name: String {
        if isSourceLanguage { return country.name }
        if strings.catalog.strings[country.name] != nil { return strings(country.name) }
        return strings.regionName(country.alpha2Code) ?? country.name
    }

    /// "Northern America, Americas"; "Nordamerika, Amerika".
    var regionDescription: String {
        let parts = [country.subregion, country.region].filter { !$0.isEmpty }.map { strings($0) }
        return parts.count == 2 ? strings("%1$@, %2$@", parts[0], parts[1]) : parts.joined()
    }

    /// "36155487 people"; "36.155.487 Einwohner".
    var populationDescription: String {
        if isSourceLanguage { return country.populationDescription }
        return strings("%lld people", country.population)
    }

    /// "9984670.0 sq km"; "9.984.670 km²".
    var areaDescription: String {
        if isSourceLanguage { return country.areaDescription }
        guard let area = country.area else { return strings("unknown") }
        return strings("%@ km²", strings.number(area, fractionDigits: 1))
    }

    private var isSourceLanguage: Bool { strings.language == strings.catalog.sourceLanguage }
}
