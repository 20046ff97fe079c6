import ShowreelRender
import ShowreelUI

/// A sign-up form: an email field that takes focus when the screen shows, Return submits
/// it and shows the result. The app customises its navigation bar (purple, yellow tint);
/// "Show contact card" presents the system contact card, which picks up that look unless
/// "Reset appearance for system screens" is on: then the app resets the proxies before
/// presenting and restores them (with the closure `resetToDefaultAppearance()` returned)
/// once the card is dismissed.
public enum SignUpApp {
    public static let bundleIdentifier = "dev.showreel.signup"

    /// The app's own navigation bar look.
    public static let brandAppearance = NavigationBarAppearance(
        barTintColor: Color(hex: 0x4B2D83), tintColor: Color(hex: 0xFFD60A), titleColor: .white,
        largeTitleColor: .white, barStyle: .black, shadowHidden: true)

    /// `--signup-email ADDRESS` starts the form with the address typed (tests that are not
    /// about typing skip it).
    public static let emailArgument = "--signup-email"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Sign Up") { context in
        let strings = try AppStrings.load("SignUp", context: context, bundleIdentifier: bundleIdentifier)
        return makeRootScreen(email: context.option(for: emailArgument) ?? "", strings: strings)
    }

    /// The form in a navigation controller, in the language of `strings` (English by default).
    public static func makeRootScreen(email: String = "", strings: LocalizedStrings? = nil) -> Screen {
        let strings = strings ?? AppStrings.english("SignUp", bundleIdentifier: bundleIdentifier)
        let navigation = NavigationController(rootScreen: SignUpScreen(email: email, strings: strings))
        navigation.prefersLargeTitles = true
        navigation.layoutDirection = strings.layoutDirection
        // What an app delegate does at launch: customise every navigation bar.
        navigation.appearance.navigationBar = brandAppearance
        return navigation
    }

    /// Is this an email address worth submitting?
    public static func isValidEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !text.contains(" ")
        else { return false }
        return true
    }
}

public final class SignUpScreen: Screen {
    let table = TableView(style: .insetGrouped)
    private(set) var resetsAppearance = false
    public private(set) var result: String
    let strings: LocalizedStrings
    var emailField: TextField? { table.cell(withIdentifier: "email")?.textField }

    let initialEmail: String

    public init(email: String = "", strings: LocalizedStrings) {
        initialEmail = email
        self.strings = strings
        result = strings("Not signed up yet")
        super.init(title: strings("Sign Up"), background: .groupedBackground)
    }

    public override func viewDidLoad() {
        table.accessibilityIdentifier = "signUpForm"
        rebuild()
        contentView = table
    }

    private func rebuild() {
        table.sections = [
            TableSection(
                header: strings("Account"), footer: strings("We will send a confirmation link to this address."),
                rows: [
                    .textField(text: initialEmail, placeholder: strings("Email"), identifier: "email") { [weak self] field in
                        field.returnKeyType = .join
                        field.onReturn = { field in self?.submit(field) }
                    }
                ]),
            TableSection(
                header: strings("Result"),
                rows: [
                    TableRow(title: strings("Status"), detail: result, style: .caption, identifier: "resultRow", detailIdentifier: "result")
                ]),
            TableSection(
                header: strings("System screens"),
                footer: strings("Resets the navigation bar appearance while a system screen shows."),
                rows: [
                    .toggle(strings("Reset appearance"), isOn: resetsAppearance, identifier: "resetAppearance") { [weak self] on in
                        self?.resetsAppearance = on
                    },
                    .button(strings("Show contact card"), identifier: "showContactCard") { [weak self] in self?.showContactCard() },
                    .button(strings("Share…"), identifier: "share") { [weak self] in self?.share() },
                ]),
        ]
    }

    public override func viewDidAppear() {
        emailField?.becomeFirstResponder()
    }

    func submit(_ field: TextField) {
        let email = field.text
        guard SignUpApp.isValidEmail(email) else {
            let alert = AlertController(title: strings("Invalid Email"), message: strings("Enter an address like name@example.com."))
            alert.addAction(AlertAction(title: strings("OK"), style: .cancel))
            present(alert)
            return
        }
        field.resignFirstResponder()
        setResult(strings("Signed up as %@", email))
    }

    private func setResult(_ text: String) {
        result = text
        table.cell(withIdentifier: "resultRow")?.setDetail(text)
    }

    func showContactCard() {
        emailField?.resignFirstResponder()
        let restore = resetsAppearance ? resetToDefaultAppearance() : nil
        let contact = Contact(
            givenName: "Kate", familyName: "Bell", phone: "(555) 564-8583", email: "kate-bell@mac.com",
            note: "Met at the sign-up demo.")
        let card = ContactCardScreen.presentable(contact: contact) { restore?() }
        present(card)
    }

    func share() {
        emailField?.resignFirstResponder()
        let restore = resetsAppearance ? resetToDefaultAppearance() : nil
        let text = emailField?.text.isEmpty == false ? emailField!.text : "https://showreel.dev/signup"
        present(
            ShareSheetScreen.presentable(items: [text]) { [weak self] activity in
                restore?()
                if let activity, let self { setResult(strings("Shared via %@", activity)) }
            })
    }
}
