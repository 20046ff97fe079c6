import Foundation

/// The form-urlencoded body the SBTUITestTunnelHost client sends.
///
/// The original client percent-encodes only `/`, `+`, `=` and newlines in values and sends the
/// rest raw (spaces, braces, `£` in its validation token), so this parser is deliberately
/// lenient: it splits on `&` and the first `=`, decodes valid `%XX` escapes, leaves invalid ones
/// as they are, and decodes the body as UTF-8 with replacement characters.
struct LegacyForm: Sendable {
    var fields: [String: String]

    init(body: [UInt8]) {
        var fields: [String: String] = [:]
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0], plusAsSpace: true)
            let value = parts.count > 1 ? Self.decode(parts[1], plusAsSpace: false) : ""
            if fields[name] == nil { fields[name] = value }
        }
        self.fields = fields
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// Percent-decodes; `+` stays `+` for values because base64 uses it and a conforming form
    /// encoder sends a real `+` as `%2B` anyway (fields other than `command` are only logged).
    static func decode(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
            } else if b == UInt8(ascii: "+"), plusAsSpace {
                out.append(UInt8(ascii: " "))
                i += 1
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Decodes the base64 `command` of /exec and /launch. Tolerates line breaks and other
    /// whitespace (the iOS client may wrap lines), missing padding, the URL-safe alphabet, a
    /// `+` that a form decoder already turned into a space, and a value percent-escaped twice:
    /// the iOS client escapes `/`, `+`, `=` itself and Foundation's `URLComponents` then escapes
    /// the `%` again (`%253D`). No base64 alphabet has `%`, so a second decoding is unambiguous.
    static func decodeBase64Command(_ field: String) -> String? {
        let field = field.contains("%") ? decode(ArraySlice(field.utf8), plusAsSpace: false) : field
        var s = ""
        s.reserveCapacity(field.count + 3)
        for c in field.unicodeScalars {
            switch c {
            case "\n", "\r", "\t": continue
            case " ": s.append("+")
            case "-": s.append("+")
            case "_": s.append("/")
            default: s.unicodeScalars.append(c)
            }
        }
        while s.count % 4 != 0 { s.append("=") }
        guard let data = Data(base64Encoded: s) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
