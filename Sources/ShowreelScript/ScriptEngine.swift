import CJavaScriptCore
import Foundation

/// One flow's JavaScript, as Maestro has it: a JavaScriptCore context whose `output` object
/// the flow and its sub-flows share, with `maestro.copiedText` and `maestro.platform`, the
/// flow's env variables as globals, `console.log` into a log the runner reads after each step,
/// `json(text)`, `Math.random` seeded and `Date` on the device's clock. JavaScriptCore alone
/// has no file system, process or network API, so a script reaches only what is set here.
/// A script that runs longer than `timeLimit` seconds is stopped with an error naming its line.
///
/// Not for concurrent use: a flow runs its steps one at a time.
package final class ScriptEngine: @unchecked Sendable {
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    private let functions: [NativeFunction]
    /// Seconds of CPU a script may take.
    package let timeLimit: Double
    private let messages = LogBuffer()
    /// The env scopes entered and not yet left: each keeps the values it replaced.
    private var scopes: [[String: String?]] = []

    /// `seed` seeds `Math.random`; `now` is the device's time (what `Date()` and `Date.now()` read).
    package init(seed: UInt64, timeLimit: Double = 5, platform: String = "ios", now: @escaping @Sendable () -> Date) {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        self.timeLimit = timeLimit
        let messages = messages
        functions = [
            NativeFunction(name: "__showreelNow") { context, _ in
                JSValueMakeNumber(context, (now().timeIntervalSince1970 * 1000).rounded())
            },
            NativeFunction(name: "__showreelLog") { context, arguments in
                messages.append(arguments.map { ScriptEngine.display($0, in: context) }.joined(separator: " "))
                return JSValueMakeUndefined(context)
            },
        ]
        for function in functions { function.install(in: context) }
        let prelude = ScriptPrelude.source(seed: seed, platform: platform)
        // The prelude is ours and known to run; should it not, every script would say why.
        _ = try? run(prelude, file: "prelude.js", line: 1)
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Runs `script` (from `file`, starting at `line`) and returns its value as text, as
    /// Maestro's `${...}` does (`undefined`, `null`, `true`, `3`, the object's `toString`).
    @discardableResult
    package func evaluate(_ script: String, file: String, line: Int) throws(ScriptError) -> String {
        let value = try run(Self.scoped(script), file: file, line: line, lastLine: Self.lastLine(of: script, from: line))
        return Self.text(value, in: context)
    }

    /// `script` where an undeclared name reads as undefined (Maestro's `${MY_VAR || 'default'}`):
    /// inside `with` over the prelude's proxy, on the same first line so lines keep their numbers.
    static func scoped(_ script: String) -> String { "with (__showreelScope) {" + script + "\n}" }

    /// Checks `script`'s syntax without running it: the error names its place in `file`.
    package func checkSyntax(_ script: String, file: String, line: Int) throws(ScriptError) {
        var exception: JSValueRef?
        let valid = JSString.with(Self.scoped(script)) { source in
            JSString.with(file) { url in JSCheckScriptSyntax(context, source, url, Int32(clamping: line), &exception) }
        }
        if !valid {
            throw error(from: exception, file: file, line: line, lastLine: Self.lastLine(of: script, from: line))
        }
    }

    /// Sets the global `name` (an env variable) to `value`.
    package func setGlobal(_ name: String, _ value: String) {
        if !scopes.isEmpty, scopes[scopes.count - 1][name] == nil {
            scopes[scopes.count - 1][name] = .some(global(name))
        }
        setProperty(JSContextGetGlobalObject(context), name, makeString(value))
    }

    /// Sets `variables` as globals until `leaveScope`: a sub-flow's env.
    package func enterScope(_ variables: [String: String]) {
        scopes.append([:])
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { setGlobal(name, value) }
    }

    /// Puts back the globals the last `enterScope` replaced (removing the ones it added).
    package func leaveScope() {
        guard let replaced = scopes.popLast() else { return }
        let global = JSContextGetGlobalObject(context)
        for (name, value) in replaced {
            if let value = value {
                setProperty(global, name, makeString(value))
            } else {
                _ = JSString.with(name) { JSObjectDeleteProperty(context, global, $0, nil) }
            }
        }
    }

    /// `maestro.copiedText`: what `copyTextFrom` copied last.
    package var copiedText: String? {
        get {
            let value = try? run("maestro.copiedText", file: "copiedText", line: 1)
            guard let value, !JSValueIsUndefined(context, value), !JSValueIsNull(context, value) else { return nil }
            return Self.text(value, in: context)
        }
        set {
            let maestro = JSValueToObject(context, try? run("maestro", file: "maestro", line: 1), nil)
            guard let maestro else { return }
            let value = newValue.map { makeString($0) } ?? JSValueMakeNull(context)
            setProperty(maestro, "copiedText", value)
        }
    }

    /// The lines `console.log` wrote since the last call.
    package func takeLog() -> [String] { messages.take() }

    // MARK: Running

    /// The line `script`'s last line is on, when it starts on `line`.
    static func lastLine(of script: String, from line: Int) -> Int { line + script.count(where: { $0 == "\n" }) }

    private func run(_ script: String, file: String, line: Int, lastLine: Int? = nil) throws(ScriptError) -> JSValueRef {
        let watchdog = Watchdog()
        JSContextGroupSetExecutionTimeLimit(
            group, timeLimit,
            { _, context in
                Unmanaged<Watchdog>.fromOpaque(context!).takeUnretainedValue().fired = true
                return true
            }, Unmanaged.passUnretained(watchdog).toOpaque())
        defer { JSContextGroupClearExecutionTimeLimit(group) }
        var exception: JSValueRef?
        let value = withExtendedLifetime(watchdog) {
            JSString.with(script) { source in
                JSString.with(file) { url in JSEvaluateScript(context, source, nil, url, Int32(clamping: line), &exception) }
            }
        }
        if watchdog.fired {
            // The line the script was stopped on, when JavaScriptCore says; its termination
            // carries none today, so this is where the script starts.
            let stopped = exception.map { error(from: $0, file: file, line: line, lastLine: lastLine).line } ?? line
            throw ScriptError(
                file: file, line: stopped,
                message:
                    "the script ran longer than \(timeLimit.formatted()) s and was stopped (a loop that never ends?): scripts must finish quickly"
            )
        }
        guard let value, exception == nil else { throw error(from: exception, file: file, line: line, lastLine: lastLine) }
        return value
    }

    /// The thrown value's message and line (`line` when it has none).
    /// (`lastLine`: where the script ends; the scope's closing line is not the script's.)
    private func error(from exception: JSValueRef?, file: String, line: Int, lastLine: Int? = nil) -> ScriptError {
        guard let exception else { return ScriptError(file: file, line: line, message: "the script failed") }
        var place = line
        if let object = JSValueToObject(context, exception, nil) {
            let number = JSString.with("line") { JSValueToNumber(context, JSObjectGetProperty(context, object, $0, nil), nil) }
            if number.isFinite, number >= 1 { place = min(Int(number), lastLine ?? Int.max) }
        }
        return ScriptError(file: file, line: place, message: Self.text(exception, in: context))
    }

    /// The global `name`'s value as text, nil when the global object has no such property of
    /// its own (undeclared names read as undefined through the prelude's proxy, so `has` cannot tell).
    private func global(_ name: String) -> String? {
        let global = JSContextGetGlobalObject(context)
        return JSString.with(name) { key in
            let own = JSString.with("Object.prototype.hasOwnProperty") { hasOwn in
                let function = JSValueToObject(context, JSEvaluateScript(context, hasOwn, nil, nil, 1, nil), nil)
                let arguments: [JSValueRef?] = [JSValueMakeString(context, key)]
                return JSValueToBoolean(context, JSObjectCallAsFunction(context, function, global, 1, arguments, nil))
            }
            return own ? Self.text(JSObjectGetProperty(context, global, key, nil), in: context) : nil
        }
    }

    private func setProperty(_ object: JSObjectRef?, _ name: String, _ value: JSValueRef?) {
        JSString.with(name) { JSObjectSetProperty(context, object, $0, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil) }
    }

    private func makeString(_ text: String) -> JSValueRef? {
        JSString.with(text) { JSValueMakeString(context, $0) }
    }

    static func text(_ value: JSValueRef?, in context: JSContextRef?) -> String {
        guard let string = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        return JSString.swiftString(string)
    }

    /// How `console.log` shows a value: objects as JSON, the rest as text.
    static func display(_ value: JSValueRef?, in context: JSContextRef?) -> String {
        if JSValueIsObject(context, value), !JSObjectIsFunction(context, JSValueToObject(context, value, nil)),
            let json = JSValueCreateJSONString(context, value, 0, nil)
        {
            defer { JSStringRelease(json) }
            return JSString.swiftString(json)
        }
        return text(value, in: context)
    }
}

/// Set by the time limit's callback when JavaScriptCore stops a script.
private final class Watchdog {
    var fired = false
}

/// The lines `console.log` wrote.
private final class LogBuffer: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    func take() -> [String] {
        lock.withLock {
            defer { lines = [] }
            return lines
        }
    }
}

/// A script that failed: where, and JavaScript's message.
package struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var message: String

    package var description: String { "\(file):\(line): \(message)" }
}
