import Foundation

extension WebDriverRoute {
    static let elementRoutes: [WebDriverRoute] = [
        .init(.POST, "session/:sid/element") { call in try await find(call, below: nil, all: false) },
        .init(.POST, "session/:sid/elements") { call in try await find(call, below: nil, all: true) },
        .init(.POST, "session/:sid/element/:eid/element") { call in try await find(call, below: call.parameter("eid"), all: false) },
        .init(.POST, "session/:sid/element/:eid/elements") { call in try await find(call, below: call.parameter("eid"), all: true) },
        .init(.POST, "session/:sid/element/:eid/click") { call in
            try await call.s.step("click \(try await call.s.describe(call.parameter("eid")))") {
                try await call.s.click(call.parameter("eid"))
            }
            return .null
        },
        .init(.POST, "session/:sid/element/:eid/value") { call in
            let text: String
            if let value = call.body["text"]?.string {
                text = value
            } else if let keys = call.body["value"]?.array, keys.allSatisfy({ $0.string != nil }) {
                text = keys.compactMap(\.string).joined()
            } else {
                throw WebDriverError.invalidArgument("Send keys needs 'text', a string (or 'value', a list of strings).")
            }
            let shown = text.unicodeScalars.filter { !(0xE000...0xF8FF).contains($0.value) }.map(String.init).joined()
            try await call.s.step("type \"\(shown)\" into \(try await call.s.describe(call.parameter("eid")))") {
                try await call.s.sendKeys(text, to: call.parameter("eid"))
            }
            return .null
        },
        .init(.POST, "session/:sid/element/:eid/clear") { call in
            try await call.s.step("clear \(try await call.s.describe(call.parameter("eid")))") {
                try await call.s.clear(call.parameter("eid"))
            }
            return .null
        },
        .init(.GET, "session/:sid/element/:eid/text") { call in .string(try await call.s.text(call.parameter("eid"))) },
        .init(.GET, "session/:sid/element/:eid/attribute/:name") { call in
            try await call.s.attribute(call.parameter("name"), of: call.parameter("eid"))
        },
        .init(.GET, "session/:sid/element/:eid/property/:name") { call in
            try await call.s.attribute(call.parameter("name"), of: call.parameter("eid"))
        },
        .init(.GET, "session/:sid/element/:eid/name") { call in .string(try await call.s.name(call.parameter("eid"))) },
        .init(.GET, "session/:sid/element/:eid/rect") { call in try await call.s.rect(call.parameter("eid")) },
        .init(.GET, "session/:sid/element/:eid/displayed") { call in .bool(try await call.s.flag("displayed", of: call.parameter("eid"))) },
        .init(.GET, "session/:sid/element/:eid/enabled") { call in .bool(try await call.s.flag("enabled", of: call.parameter("eid"))) },
        .init(.GET, "session/:sid/element/:eid/selected") { call in .bool(try await call.s.flag("selected", of: call.parameter("eid"))) },
        .init(.GET, "session/:sid/element/:eid/screenshot") { call in
            .string(Data(try await call.s.screenshotPNG(of: call.parameter("eid"))).base64EncodedString())
        },
    ]

    private static func find(_ call: Call, below parent: String?, all: Bool) async throws(WebDriverError) -> JSONValue {
        let using = try call.string("using")
        let value = try call.string("value")
        let locator = try Locator(using: using, value: value)
        let found = try await call.s.find(locator, described: Locator.describe(using: using, value: value), below: parent, all: all)
        return all ? .array(found.map(WebDriverSession.elementValue)) : WebDriverSession.elementValue(found[0])
    }
}

extension WebDriverSession {
    /// How a step names an element: `XCUIElementTypeCell "Canada"`.
    func describe(_ id: String) async throws(WebDriverError) -> String {
        let (tree, index) = try await resolve(id)
        return tree.describe(index)
    }
}
