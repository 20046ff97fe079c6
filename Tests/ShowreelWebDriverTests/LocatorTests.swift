import ShowreelAccessibility
import ShowreelGraphics
import Testing

@testable import ShowreelWebDriver

/// Locators, xpath, predicates and class chains over a small tree: a table of two cells (each a
/// label and a detail) under a navigation bar, and a button.
@Suite("WebDriver locators")
struct LocatorTests {
    static func element(
        _ type: ElementType, _ identifier: String = "", _ label: String = "", value: String? = nil,
        y: Double = 0, children: [ElementSnapshot] = []
    ) -> ElementSnapshot {
        ElementSnapshot(
            type: type, identifier: identifier, label: label, value: value, frame: Rect(x: 0, y: y, width: 390, height: 44),
            isEnabled: true, isHittable: true, children: children)
    }

    static let tree = PageTree(
        roots: [
            element(
                .window,
                children: [
                    element(.navigationBar, "", "Countries"),
                    element(
                        .table, "list", y: 100,
                        children: [
                            element(
                                .cell, "", "Canada", y: 100,
                                children: [element(.staticText, "name", "Canada"), element(.staticText, "", "Americas")]),
                            element(
                                .cell, "", "Chile", y: 150,
                                children: [element(.staticText, "name", "Chile"), element(.staticText, "", "Americas")]),
                        ]),
                    element(.button, "go", "Go", y: 900),
                    element(.switch, "toggle", "Dark", value: "1", y: 200),
                ])
        ], screen: Size(width: 390, height: 844), appName: "dev.example")

    func select(_ using: String, _ value: String) throws -> [String] {
        try Locator(using: using, value: value).select(in: Self.tree, from: Self.tree.root).map { Self.tree.describe($0) }
    }

    @Test("accessibility id, id, name and the css forms Selenium sends match an identifier or a label")
    func names() throws {
        #expect(try select("accessibility id", "Canada") == ["XCUIElementTypeCell \"Canada\"", "XCUIElementTypeStaticText \"name\""])
        #expect(try select("id", "go") == ["XCUIElementTypeButton \"go\""])
        #expect(try select("css selector", "[name=\"go\"]") == ["XCUIElementTypeButton \"go\""])
        #expect(try select("css selector", "#go") == ["XCUIElementTypeButton \"go\""])
        #expect(try select("css selector", ".XCUIElementTypeSwitch") == ["XCUIElementTypeSwitch \"toggle\""])
        #expect(try select("class name", "XCUIElementTypeCell").count == 2)
    }

    @Test("xpath: //, @attributes, contains, positions, .., axes, and, or, not, unions")
    func xpath() throws {
        #expect(try select("xpath", "//XCUIElementTypeCell[@label='Chile']") == ["XCUIElementTypeCell \"Chile\""])
        #expect(try select("xpath", "//XCUIElementTypeCell[2]/XCUIElementTypeStaticText[1]") == ["XCUIElementTypeStaticText \"name\""])
        #expect(try select("xpath", "(//XCUIElementTypeStaticText)[last()]").count == 1)
        #expect(try select("xpath", "//*[@name='name' and contains(@label, 'hil')]/..") == ["XCUIElementTypeCell \"Chile\""])
        #expect(try select("xpath", "//XCUIElementTypeCell[@label='Canada' or @label='Chile']").count == 2)
        #expect(try select("xpath", "//XCUIElementTypeCell[not(@label='Canada')]") == ["XCUIElementTypeCell \"Chile\""])
        #expect(
            try select("xpath", "/XCUIElementTypeApplication/XCUIElementTypeWindow/XCUIElementTypeButton") == [
                "XCUIElementTypeButton \"go\""
            ])
        #expect(
            try select("xpath", "//XCUIElementTypeCell[XCUIElementTypeStaticText[@label='Chile']]") == ["XCUIElementTypeCell \"Chile\""])
        #expect(try select("xpath", "//XCUIElementTypeCell[1]/following-sibling::*") == ["XCUIElementTypeCell \"Chile\""])
        #expect(try select("xpath", "//XCUIElementTypeButton | //XCUIElementTypeSwitch").count == 2)
        #expect(try select("xpath", "//XCUIElementTypeSwitch[@value='1' and @visible='true']").count == 1)
        #expect(try select("xpath", "//XCUIElementTypeButton[@visible='false']").count == 1, "below the screen's bottom")
        #expect(try select("xpath", "//XCUIElementTypeApplication[@name='dev.example']").count == 1)
    }

    @Test("xpath refuses what it does not support, naming it")
    func xpathRefusals() {
        for (xpath, named) in [
            ("//XCUIElementTypeCell/text()", "text()"), ("//a[matches(@name, 'x')]", "matches()"),
            ("//namespace::x", "namespace"), ("//XCUIElementTypeCell/@name", "attribute step"),
            ("//x[@name='unclosed]", "never closed"), ("//x[", "empty expression"),
        ] {
            #expect { try Locator(using: "xpath", value: xpath).select(in: Self.tree, from: Self.tree.root) } throws: { error in
                let error = error as? WebDriverError
                return error?.code == .invalidSelector && error?.message.contains(named) == true
            }
        }
    }

    @Test("-ios predicate string: comparisons, options, IN, AND/OR/NOT, booleans")
    func predicates() throws {
        #expect(try select("-ios predicate string", "label == 'Chile'").count == 2)
        #expect(
            try select("-ios predicate string", "type == 'XCUIElementTypeCell' AND label BEGINSWITH[c] 'ch'") == [
                "XCUIElementTypeCell \"Chile\""
            ])
        #expect(try select("-ios predicate string", "name IN {'go', 'toggle'}").count == 2)
        #expect(try select("-ios predicate string", "type == 'XCUIElementTypeSwitch' AND value == 1").count == 1)
        #expect(
            try select("-ios predicate string", "label LIKE 'C*a' AND NOT (type == 'XCUIElementTypeStaticText')") == [
                "XCUIElementTypeCell \"Canada\""
            ])
        #expect(try select("-ios predicate string", "label MATCHES 'Ch.le' && type == 'XCUIElementTypeCell'").count == 1)
        #expect(throws: WebDriverError.self) { try select("-ios predicate string", "frame.x > 3") }
        #expect(throws: WebDriverError.self) { try select("-ios predicate string", "label ==") }
    }

    @Test("-ios class chain: **/, types, [n], [-1], [`predicate`]; [$...$] refused")
    func classChains() throws {
        #expect(try select("-ios class chain", "**/XCUIElementTypeCell").count == 2)
        #expect(try select("-ios class chain", "**/XCUIElementTypeCell[-1]") == ["XCUIElementTypeCell \"Chile\""])
        #expect(try select("-ios class chain", "XCUIElementTypeWindow/XCUIElementTypeButton") == ["XCUIElementTypeButton \"go\""])
        #expect(try select("-ios class chain", "**/XCUIElementTypeCell[`label == \"Canada\"`]/XCUIElementTypeStaticText[2]").count == 1)
        #expect(throws: WebDriverError.self) { try select("-ios class chain", "**/XCUIElementTypeCell[$label == 'x'$]") }
        #expect(throws: WebDriverError.self) { try select("-ios class chain", "**/Widget") }
    }

    @Test("an unsupported strategy is an invalid selector listing the supported ones")
    func unsupportedStrategy() {
        #expect { try Locator(using: "link text", value: "x") } throws: { error in
            (error as? WebDriverError)?.code == .invalidSelector && "\(error)".contains("accessibility id")
        }
    }

    @Test("page source: XCUIElementType elements with the attributes Inspector reads, escaped")
    func pageSource() {
        let tree = PageTree(
            roots: [Self.element(.staticText, "quote", "Say \"<hi>\" & go")], screen: Size(width: 390, height: 844), appName: "app")
        let xml = PageSource.xml(tree)
        #expect(xml.contains("<XCUIElementTypeApplication type=\"XCUIElementTypeApplication\" name=\"app\""))
        #expect(
            xml.contains(
                "<XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" name=\"quote\" label=\"Say &quot;&lt;hi&gt;&quot; &amp; go\" enabled=\"true\" visible=\"true\""
            ))
        #expect(xml.contains("x=\"0\" y=\"0\" width=\"390\" height=\"44\""))
    }

    @Test("special keys: Return, Enter and Backspace are keyboard keys; a key the keyboard lacks is named")
    func keys() throws {
        #expect(try WebDriverKeys.pieces("ab\u{E003}c\u{E007}") == [.text("ab"), .key("delete"), .text("c"), .key("Return")])
        #expect(try WebDriverKeys.pieces("a\u{E00D}b") == [.text("a b")])
        #expect { try WebDriverKeys.pieces("\u{E00C}") } throws: { "\($0)".contains("Escape") }
    }

    @Test("capabilities: W3C merge, legacy, processArguments, unknown ignored, bad values named")
    func capabilities() throws {
        let w3c: JSONValue = [
            "capabilities": [
                "alwaysMatch": ["platformName": "iOS", "appium:bundleId": "dev.a", "vendor:x": 1],
                "firstMatch": [["appium:processArguments": ["args": ["-AppleLanguages", "(de)"], "env": ["A": "1"]]]],
            ]
        ]
        let parsed = try SessionCapabilities.parse(w3c)
        #expect(parsed.bundleID == "dev.a")
        #expect(parsed.arguments == ["-AppleLanguages", "(de)"])
        #expect(parsed.environment == ["A": "1"])
        let legacy = try SessionCapabilities.parse([
            "desiredCapabilities": ["platformName": "iOS", "bundleId": "dev.b", "deviceName": "tablet"]
        ])
        #expect(legacy.bundleID == "dev.b" && legacy.profile.name == "tablet")
        #expect { try SessionCapabilities.parse(["capabilities": ["alwaysMatch": ["showreel:record": "yes"]]]) } throws: {
            ($0 as? WebDriverError)?.code == .invalidArgument && "\($0)".contains("showreel:record")
        }
        #expect { try SessionCapabilities.parse(["capabilities": ["alwaysMatch": ["platformName": "Android"]]]) } throws: {
            ($0 as? WebDriverError)?.code == .sessionNotCreated
        }
    }
}
