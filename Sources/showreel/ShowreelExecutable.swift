import ShowcaseApps
import ShowreelCLI

/// The bundled `showreel`: every verb, with the sample apps installed.
@main
struct ShowreelExecutable {
    static func main() async {
        await ShowreelCommand.main(configuration: ShowreelConfiguration(apps: ShowcaseCatalog.apps, commandName: "showreel"))
    }
}
