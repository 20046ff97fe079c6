import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Sample apps read their launch arguments")
struct SampleAppArgumentsTests {
    @Test("Hello's title and Sign-up's address come from launch options; Mail's server from a provider")
    func options() throws {
        let hello = try SceneHarness(app: HelloApp.definition, arguments: ["--hello-title", "Acme Demo"])
        #expect(hello.element("title")?.label == "Acme Demo")
        #expect(try SceneHarness(app: HelloApp.definition).element("title")?.label == "Showreel")
        let signUp = try SceneHarness(app: SignUpApp.definition, arguments: ["--signup-email=qa@example.com"])
        #expect(signUp.element("email", type: .textField)?.value == "qa@example.com")
        #expect(try MailApp.ServiceLocator(context: LaunchContext(arguments: ["--mail-environment", "staging"])).environment == .staging)
        #expect(try MailApp.ServiceLocator(context: LaunchContext()).environment == .production)
        do {
            _ = try MailApp.definition.makeRootScreen(LaunchContext(arguments: ["--mail-environment", "qa"]))
            Issue.record("an unknown environment must stop the app")
        } catch let error as AppFatalError {
            #expect(error.message == "Unknown value 'qa' for --mail-environment: use one of production, staging.")
        }
    }
}
