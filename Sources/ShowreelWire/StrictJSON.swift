import Foundation

/// Decodes a JSON body and refuses what a plain `JSONDecoder` would quietly ignore: a field the
/// type does not have (a misspelt `identifer` would otherwise leave the query matching anything).
/// The error names the field and, when one is close, the spelling that was meant.
///
/// The fields a type has are read from the decoded value itself (a `Mirror` of its stored
/// properties, which synthesised `Codable` names its keys after), so every body type gets the
/// check without listing its fields twice.
package enum StrictJSON {
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let value: T
        do { value = try WireJSON.decoder.decode(type, from: data) } catch let DecodingError.keyNotFound(key, context) {
            // A required field is missing: most often it is there, misspelt.
            if let misspelt = misspelling(of: key.stringValue, at: context.codingPath, in: data) {
                throw AutomationInputError.unknownField(
                    path: context.codingPath.map(name) + [misspelt], suggestion: key.stringValue, valid: [])
            }
            throw DecodingError.keyNotFound(key, context)
        }
        let json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        try check(json, against: value, path: [])
        return value
    }

    private static func name(_ key: any CodingKey) -> String { key.intValue.map { "[\($0)]" } ?? key.stringValue }

    /// A key of the object at `path` that is spelt like the missing `field`.
    private static func misspelling(of field: String, at path: [any CodingKey], in data: Data) -> String? {
        var json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        for key in path {
            if let index = key.intValue {
                json = (json as? [Any]).flatMap { index < $0.count ? $0[index] : nil }
            } else {
                json = (json as? [String: Any])?[key.stringValue]
            }
        }
        guard let object = json as? [String: Any] else { return nil }
        return object.keys.sorted().first { Spelling.nearest(to: $0, in: [field]) != nil }
    }

    private static func check(_ json: Any, against value: Any, path: [String]) throws {
        let mirror = unwrapped(Mirror(reflecting: value))
        switch (json, mirror.displayStyle) {
        case let (object as [String: Any], .struct?), let (object as [String: Any], .class?):
            let fields = Dictionary(
                mirror.children.compactMap { child in child.label.map { ($0, child.value) } },
                uniquingKeysWith: { first, _ in first })
            for key in object.keys.sorted() {
                guard let child = fields[key] else {
                    throw AutomationInputError.unknownField(
                        path: path + [key], suggestion: Spelling.nearest(to: key, in: fields.keys.sorted()), valid: fields.keys.sorted())
                }
                try check(object[key]!, against: child, path: path + [key])
            }
        case let (array as [Any], .collection?):
            for (index, (element, child)) in zip(array, mirror.children.map(\.value)).enumerated() {
                try check(element, against: child, path: path + ["[\(index)]"])
            }
        default:
            return  // numbers, strings, enums, dictionaries of free keys
        }
    }

    private static func unwrapped(_ mirror: Mirror) -> Mirror {
        guard mirror.displayStyle == .optional, let some = mirror.children.first else { return mirror }
        return unwrapped(Mirror(reflecting: some.value))
    }
}

/// What is wrong with an automation request's body, worded for the person who wrote it.
public enum AutomationInputError: Error, CustomStringConvertible, Equatable, Sendable {
    case unknownField(path: [String], suggestion: String?, valid: [String])
    case outOfRange(field: String, message: String)
    /// Fields that do not go together (a tap with both a query and a point): the sentence says which do.
    case invalidShape(String)

    public var description: String {
        switch self {
        case let .unknownField(path, suggestion, valid):
            let name = path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
            let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
            let fields = valid.isEmpty ? "" : " Valid fields here: \(valid.joined(separator: ", "))."
            return "unknown field '\(name)'.\(hint)\(fields)"
        case let .outOfRange(field, message):
            return "'\(field)' \(message)"
        case let .invalidShape(message):
            return message
        }
    }
}
