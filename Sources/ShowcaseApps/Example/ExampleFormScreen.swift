import ShowreelRender
import ShowreelUI

/// The demo app's form ("Form Test", and the `example://form` link): Email and Password
/// fields labelled as Flutter labels them, and Login, which says whether the credentials are
/// `correct@mobile.dev` / `maestro`.
final class ExampleFormScreen: Screen {
    let strings: LocalizedStrings
    let email: TextField
    let password: TextField
    let login: Button
    let message = Label("", font: .system(15), alignment: .center)

    static let correctEmail = "correct@mobile.dev"
    static let correctPassword = "maestro"

    init(strings: LocalizedStrings) {
        self.strings = strings
        email = TextField(placeholder: strings("Email"))
        password = TextField(placeholder: strings("Password"))
        login = Button(strings("Login"), style: .bordered)
        super.init(title: strings("Login"))
    }

    override func viewDidLoad() {
        // A Flutter TextField's labelText is its accessibility label; what is typed, its value.
        email.accessibilityLabel = email.placeholder
        password.accessibilityLabel = password.placeholder
        password.isSecureTextEntry = true
        email.onReturn = { [weak self] _ in _ = self?.password.becomeFirstResponder() }
        login.cornerRadius = 20
        login.action = { [weak self] in self?.submit() }
        for subview in [email, password, login, message] as [View] { view.addSubview(subview) }
    }

    func submit() {
        let correct = email.text == Self.correctEmail && password.text == Self.correctPassword
        message.text = correct ? strings("Credentials are correct") : strings("Invalid email or password")
    }

    override func layout(safeArea: Rect) {
        let width = safeArea.width - 32
        email.frame = Rect(x: safeArea.minX + 16, y: safeArea.minY + 16, width: width, height: 48)
        password.frame = Rect(x: email.frame.minX, y: email.frame.maxY + 16, width: width, height: 48)
        let loginWidth = max(96, login.sizeThatFits(Size(width: width, height: 40)).width)
        login.frame = Rect(x: safeArea.midX - loginWidth / 2, y: password.frame.maxY + 16, width: loginWidth, height: 40)
        message.frame = Rect(x: email.frame.minX, y: login.frame.maxY + 8, width: width, height: 24)
    }
}
