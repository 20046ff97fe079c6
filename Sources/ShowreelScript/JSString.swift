import CJavaScriptCore

/// Swift text to and from JavaScriptCore's strings.
enum JSString {
    /// Calls `body` with `text` as a JavaScriptCore string, released afterwards (a wrapper
    /// object could be released by Swift before the C call that reads it).
    static func with<T>(_ text: String, _ body: (JSStringRef?) throws -> T) rethrows -> T {
        let string = JSStringCreateWithUTF8CString(text)
        defer { JSStringRelease(string) }
        return try body(string)
    }

    /// A JavaScriptCore string's text (the caller still owns `string`).
    static func swiftString(_ string: JSStringRef) -> String {
        let size = JSStringGetMaximumUTF8CStringSize(string)
        var bytes = [CChar](repeating: 0, count: size)
        let written = JSStringGetUTF8CString(string, &bytes, size)
        guard written > 0 else { return "" }
        return String(decoding: bytes[0..<(written - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
