import Foundation
import ShowreelUI

/// The Countries app's deep links: `countries://country/CA` opens Canada's details (over the
/// list, so Back returns to it); a code no country has shows an alert saying so.
enum CountriesLinks {
    static let scheme = "countries"

    static func open(_ url: URL, root: Screen) {
        guard let navigation = root as? NavigationController,
            let list = navigation.screens.first as? CountriesListScreen
        else { return }
        navigation.setScreens([list])
        let parts = [url.host ?? ""] + url.pathComponents.filter { $0 != "/" }
        guard parts.count == 2, parts[0] == "country" else {
            list.present(notFound(list.strings("This link opens nothing in Countries: %@", url.absoluteString), strings: list.strings))
            return
        }
        let code = parts[1].uppercased()
        guard let country = list.countries.first(where: { $0.alpha2Code == code }) else {
            list.present(notFound(list.strings("No country has the code %@.", code), strings: list.strings))
            return
        }
        list.show(country)
    }

    private static func notFound(_ message: String, strings: LocalizedStrings) -> AlertController {
        let alert = AlertController(title: strings("Link not found"), message: message)
        alert.addAction(AlertAction(title: strings("OK"), style: .cancel))
        return alert
    }
}
