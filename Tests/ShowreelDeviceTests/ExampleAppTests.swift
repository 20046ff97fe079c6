import Foundation
import ShowcaseApps
import ShowreelTestSupport
import ShowreelTesting
import Testing

/// The port of Maestro's demo app over real HTTP: the texts and identifiers Maestro's flows
/// use, the launch arguments as Maestro passes them to an iOS app, and the deep link.
@Suite("Maestro's demo app (com.example.example)", .timeLimit(.minutes(10)))
struct ExampleAppTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("home: the grid of test screens, the counter, and the add button counting")
    func home() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, device: h.client)
            try await app.launch()
            #expect(try await app.navigationBars["Flutter Demo Home Page"].exists)
            for title in ["Defects Test", "Nesting Test", "Swipe Test", "Form Test", "Input Test", "Scrollable List"] {
                #expect(try await app.buttons[title].isHittable, "\(title)")
            }
            #expect(try await app.staticTexts["You have pushed the button this many times"].exists)
            #expect(try await app.staticTexts["0"].exists)
            try await app.buttons["fabAddIcon"].tap()
            try await app.buttons["fabAddIcon"].tap()
            #expect(try await app.staticTexts["2"].exists)
            #expect(try await app.buttons["fabAddIcon"].label == "Increment")
        }
    }

    @Test("launchApp's arguments as Maestro passes them on iOS: -initialCounter 5 starts at 5, -delay 2 counts 2 s later")
    func launchArguments() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, launchArguments: ["-initialCounter", "5", "-delay", "2"], device: h.client)
            try await app.launch()
            #expect(try await app.staticTexts["5"].exists)
            let before = try await h.client.info().time
            try await app.buttons["fabAddIcon"].tap()
            #expect(try await app.staticTexts["6"].waitForExistence(timeout: .seconds(5)))
            let after = try await h.client.info().time
            #expect(after - before >= 2, "the count waited \(after - before) s of device time")

            // Spelt as an option or bare, as other drivers pass them.
            for (arguments, count) in [(["--initialCounter", "7"], "7"), (["initialCounter", "8"], "8")] {
                let other = Application(ExampleApp.bundleIdentifier, launchArguments: arguments, device: h.client)
                try await other.launch()
                #expect(try await other.staticTexts[count].exists, "\(arguments)")
            }
        }
    }

    @Test("the form: wrong credentials, then correct ones")
    func form() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, device: h.client)
            for (password, message) in [("wrong", "Invalid email or password"), ("maestro", "Credentials are correct")] {
                try await app.launch()
                try await app.buttons["Form Test"].tap()
                #expect(try await app.navigationBars["Login"].exists)
                let email = app.textFields["Email"]
                try await email.tap()
                try await email.typeText("correct@mobile.dev")
                try await app.secureTextFields["Password"].tap()
                try await app.secureTextFields["Password"].typeText(password)
                try await app.buttons["Login"].tap()
                #expect(try await app.staticTexts[message].exists)
                // fill_form.yaml taps `{text: Login, index: 1}`: Maestro orders matches top to
                // bottom, so the title comes first and the button second.
                let title = try await app.navigationBars.staticTexts["Login"].frame
                #expect(try await app.buttons["Login"].frame.minY > title.minY)
                #expect(try await email.value == "correct@mobile.dev")
            }
        }
    }

    @Test("example://form opens the form over the home screen, launching the app when it is not running")
    func deepLink() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, device: h.client)
            let status = try await h.client.openURL("example://form")
            #expect(status.bundleIdentifier == ExampleApp.bundleIdentifier)
            #expect(try await app.secureTextFields["Password"].exists)
            #expect(try await app.navigationBars["Login"].exists)
            try await app.navigationBars.buttons["BackButton"].tap()
            #expect(try await app.buttons["Form Test"].exists)
        }
    }

    @Test("input, list and nesting screens keep Maestro's identifiers and texts")
    func screens() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.buttons["Input Test"].tap()
            let field = app.textFields["textInput"]
            try await field.tap()
            try await field.typeText("foo")
            #expect(try await field.value == "foo")

            try await app.launch()
            try await app.buttons["Scrollable List"].tap()
            #expect(try await app.cells["Item 1"].isHittable)
            #expect(try await !app.cells["Item 20"].isHittable)

            try await app.launch()
            try await app.buttons["Nesting Test"].tap()
            let level0 = try await app.descendants()["level-0"].snapshot
            let level1 = try #require(level0.children.first { $0.identifier == "level-1" })
            #expect(level1.children.contains { $0.identifier == "level-2" })
            #expect(level0.children.contains { $0.label == "Container at level 1" })
            var sides: [Rect] = []
            for side in ["left side", "top side", "right side", "bottom side"] { sides.append(try await app.staticTexts[side].frame) }
            // Maestro's relative selectors compare origins: level-1 is right of the left text,
            // left of the right text, below the top text and above the bottom text.
            #expect(level1.frame.x > sides[0].x && level1.frame.x < sides[2].x)
            #expect(level1.frame.y > sides[1].y && level1.frame.y < sides[3].y)
        }
    }

    @Test("the swipe screen: a finger coming down on each square turns it green; then End here! shows All green")
    func swipe() async throws {
        try await Harness.with { h in
            let app = Application(ExampleApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.buttons["Swipe Test"].tap()
            #expect(try await !app.navigationBars.firstMatch.exists)
            // swipe.yaml starts its swipes at 50%,15%, 15%,50% and 85%,85% of the screen and
            // taps 85%,50%: the squares are centred there.
            let screen = try await app.descendants(matching: .window).firstMatch.frame
            for (name, x, y) in [
                ("Container 0", 0.5, 0.15), ("Container 1", 0.15, 0.5), ("Container 2", 0.85, 0.85), ("End here!", 0.85, 0.5),
            ] {
                let frame = try await app.descendants()[name].frame
                #expect(abs(frame.midX - screen.width * x) < 1 && abs(frame.midY - screen.height * y) < 1, "\(name): \(frame)")
            }
            try await app.descendants()["Container 0"].swipeLeft()
            try await app.descendants()["Container 1"].swipeDown()
            #expect(try await !app.staticTexts["All green"].exists)
            try await app.descendants()["Container 2"].swipeUp()
            try await app.descendants()["End here!"].tap()
            #expect(try await app.staticTexts["All green"].exists)
            try await app.buttons["Back"].tap()
            #expect(try await app.navigationBars["Flutter Demo Home Page"].exists)
        }
    }
}
