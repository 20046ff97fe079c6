import Foundation
import ShowreelTestSupport
import Testing

@testable import ShowreelScript

@Suite("JavaScript for flows (JavaScriptCore)")
struct ScriptEngineTests {
    static let epoch = Date(timeIntervalSince1970: 1_168_335_660)

    func engine(seed: UInt64 = 1, timeLimit: Double = 5) -> ScriptEngine {
        ScriptEngine(seed: seed, timeLimit: timeLimit, now: { Self.epoch })
    }

    @Test("expressions give Maestro's text: numbers, booleans, strings, undefined for undeclared names")
    func expressions() throws {
        let js = engine()
        #expect(try js.evaluate("1 + 2", file: "f.yaml", line: 1) == "3")
        #expect(try js.evaluate("\"test\" == \"test\"", file: "f.yaml", line: 1) == "true")
        #expect(try js.evaluate("`a${'b'}`", file: "f.yaml", line: 1) == "ab")
        #expect(try js.evaluate("MISSING_VAR || 'default'", file: "f.yaml", line: 1) == "default")
        #expect(try js.evaluate("[1, 2].map(x => x * 2).join()", file: "f.yaml", line: 1) == "2,4")
    }

    @Test("output is one object across scripts; maestro.platform is ios; copiedText reads and writes")
    func sharedObjects() throws {
        let js = engine()
        try js.evaluate("output.test = 'foo'", file: "f.yaml", line: 3)
        #expect(try js.evaluate("output.test == 'foo'", file: "f.yaml", line: 4) == "true")
        #expect(try js.evaluate("maestro.platform", file: "f.yaml", line: 1) == "ios")
        #expect(js.copiedText == nil)
        js.copiedText = "42"
        #expect(try js.evaluate("maestro.copiedText == '42'", file: "f.yaml", line: 1) == "true")
        try js.evaluate("maestro.copiedText = 'foo'", file: "f.yaml", line: 1)
        #expect(js.copiedText == "foo")
    }

    @Test("env variables are globals; a scope puts back what it replaced and removes what it added")
    func environment() throws {
        let js = engine()
        js.setGlobal("THING", "five")
        js.enterScope(["THING": "six", "OTHER": "x"])
        #expect(try js.evaluate("THING + OTHER", file: "f.yaml", line: 1) == "sixx")
        js.leaveScope()
        #expect(try js.evaluate("THING", file: "f.yaml", line: 1) == "five")
        #expect(try js.evaluate("typeof OTHER", file: "f.yaml", line: 1) == "undefined")
    }

    @Test("console.log collects lines (objects as JSON); json() parses")
    func consoleAndJSON() throws {
        let js = engine()
        try js.evaluate("console.log('hello', 3); console.log({a: json('[1,2]')})", file: "s.js", line: 1)
        #expect(js.takeLog() == ["hello 3", "{\"a\":[1,2]}"])
        #expect(js.takeLog().isEmpty)
    }

    @Test("Math.random is the same for the same seed and differs for another; Date is the device's clock")
    func determinism() throws {
        let draws = "[Math.random(), Math.random(), Math.random()].join()"
        let first = try engine(seed: 7).evaluate(draws, file: "f", line: 1)
        #expect(try engine(seed: 7).evaluate(draws, file: "f", line: 1) == first)
        #expect(try engine(seed: 8).evaluate(draws, file: "f", line: 1) != first)
        let js = engine()
        #expect(try js.evaluate("Date.now()", file: "f", line: 1) == "1168335660000")
        #expect(try js.evaluate("new Date().getTime()", file: "f", line: 1) == "1168335660000")
        #expect(try js.evaluate("new Date(0).getTime()", file: "f", line: 1) == "0")
        #expect(try js.evaluate("new Date() instanceof Date", file: "f", line: 1) == "true")
    }

    @Test("a thrown error and a syntax error name the file and the line")
    func errors() throws {
        let js = engine()
        let thrown = #expect(throws: ScriptError.self) { try js.evaluate("let a = 1;\nnope();", file: "runScript.js", line: 1) }
        #expect(thrown?.file == "runScript.js" && thrown?.line == 2, "\(String(describing: thrown))")
        #expect(thrown?.message.contains("nope") == true)
        let syntax = #expect(throws: ScriptError.self) { try js.checkSyntax("output.x = (", file: "flow.yaml", line: 9) }
        #expect(syntax?.line == 9 && syntax?.message.contains("SyntaxError") == true, "\(String(describing: syntax))")
    }

    @Test("no file system, processes or network: none of their APIs exist")
    func sandbox() throws {
        let js = engine()
        for name in ["require", "process", "fetch", "XMLHttpRequest", "Deno", "Bun", "readFile", "load"] {
            #expect(try js.evaluate("typeof \(name)", file: "f", line: 1) == "undefined", "\(name)")
        }
    }

    @Test("a script that never ends is stopped at the time limit, naming its file and line; the engine runs on")
    func timeLimit() async throws {
        // The loop spins until JavaScriptCore stops it: on a thread of its own, not one of the
        // cooperative pool's few that every other test's work waits for.
        let js = engine(timeLimit: 0.2)
        let outcome = try await offPool { () -> (error: String?, file: String?, line: Int?, after: String) in
            var caught: ScriptError?
            do { _ = try js.evaluate("let i = 0;\nwhile (true) { i++ }", file: "loop.js", line: 4) } catch let error as ScriptError {
                caught = error
            }
            return (caught?.description, caught?.file, caught?.line, try js.evaluate("2 * 21", file: "f", line: 1))
        }
        #expect(outcome.error?.contains(": the script ran longer than 0.2 s") == true, "\(String(describing: outcome.error))")
        #expect(outcome.file == "loop.js" && outcome.line == 4, "\(outcome)")
        #expect(outcome.after == "42")
    }
}

@Suite("Maestro's ${...} in values")
struct ScriptTemplateTests {
    @Test("expressions, several in a value, escaped ones and unclosed ones")
    func parts() throws {
        #expect(ScriptTemplate.parts(of: "plain") == [.text("plain")])
        #expect(ScriptTemplate.parts(of: "${a} and ${b}") == [.expression("a"), .text(" and "), .expression("b")])
        #expect(ScriptTemplate.parts(of: "x ${ {a: 1}.a } y") == [.text("x "), .expression(" {a: 1}.a "), .text(" y")])
        #expect(ScriptTemplate.parts(of: "\\${a}") == [.text("${a}")])
        #expect(ScriptTemplate.parts(of: "${open") == [.text("${open")])
        let js = ScriptEngine(seed: 1, now: { Date(timeIntervalSince1970: 0) })
        js.setGlobal("NAME", "Ada")
        #expect(try js.interpolate("Hello ${NAME}, ${1 + 1}${}", file: "f.yaml", line: 1) == "Hello Ada, 2")
    }
}
