import ShowreelRender

/// Where the software keyboard stands: which plane shows and whether shift is on.
public struct KeyboardState: Equatable, Hashable, Sendable, Codable {
    public enum Plane: String, Sendable, Codable, CaseIterable {
        /// qwerty letters, shift, "123" (identifier "more"), space, delete, Return.
        case letters
        /// Digits and common punctuation ("@", ".", "-", ...), "#+=" (identifier "symbols"), "ABC" ("more").
        case numbers
        /// Brackets and rarer symbols ("_", "[", "#", ...), "123" (identifier "symbols"), "ABC" ("more").
        case symbols
    }

    public var plane: Plane
    /// Shift applies to the next letter only, then turns off.
    public var isShifted: Bool

    public init(plane: Plane = .letters, isShifted: Bool = false) {
        self.plane = plane
        self.isShifted = isShifted
    }
}

/// What a key press does to the focused text field.
public enum KeyboardEdit: Equatable, Sendable {
    case insert(String)
    case deleteBackward
    case returnKey
}

/// The software keyboard's layout and behaviour as pure functions, so a device can plan
/// the taps that type a text (`keyTaps(toType:from:)`) exactly as the keyboard will take them.
///
/// Key identifiers: the character itself for character keys ("a", "A" when shifted, "@"),
/// and "shift", "more" (the "123"/"ABC" plane switch), "symbols" (the "#+="/"123" key in
/// the shift position on the number planes), "space", "delete", "Return".
public enum SoftwareKeyboard {
    public static let shift = "shift"
    public static let more = "more"
    public static let symbols = "symbols"
    public static let space = "space"
    public static let delete = "delete"
    public static let returnKey = "Return"

    public struct Key: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case character, shift, more, symbols, space, delete, returnKey }
        public var identifier: String
        /// What the key cap shows.
        public var caption: String
        public var kind: Kind
        /// Width in key units (a letter key is 1; a row is 10 units wide).
        public var units: Double
    }

    static let letterRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    static let numberRows = ["1234567890", "-/:;()$&@\"", ".,?!'"]
    static let symbolRows = ["[]{}#%^*+=", "_\\|~<>€£¥•", ".,?!'"]

    /// The keyboard's rows for a state (letters show as capitals while shifted).
    public static func rows(for state: KeyboardState) -> [[Key]] {
        func characters(_ text: String, units: Double = 1) -> [Key] {
            text.map { character in
                var value = String(character)
                if state.plane == .letters && state.isShifted { value = value.uppercased() }
                return Key(identifier: value, caption: value, kind: .character, units: units)
            }
        }
        let bottom = [
            Key(identifier: more, caption: state.plane == .letters ? "123" : "ABC", kind: .more, units: 2.5),
            Key(identifier: space, caption: "space", kind: .space, units: 5),
            Key(identifier: returnKey, caption: "return", kind: .returnKey, units: 2.5),
        ]
        switch state.plane {
        case .letters:
            return [
                characters(letterRows[0]), characters(letterRows[1]),
                [Key(identifier: shift, caption: "⇧", kind: .shift, units: 1.35)] + characters(letterRows[2])
                    + [Key(identifier: delete, caption: "⌫", kind: .delete, units: 1.35)],
                bottom,
            ]
        case .numbers, .symbols:
            let source = state.plane == .numbers ? numberRows : symbolRows
            return [
                characters(source[0]), characters(source[1]),
                [Key(identifier: symbols, caption: state.plane == .numbers ? "#+=" : "123", kind: .symbols, units: 1.35)]
                    + characters(source[2], units: 1.42) + [Key(identifier: delete, caption: "⌫", kind: .delete, units: 1.35)],
                bottom,
            ]
        }
    }

    /// Every key identifier visible in a state.
    public static func keyIdentifiers(in state: KeyboardState) -> [String] {
        rows(for: state).flatMap { $0.map(\.identifier) }
    }

    /// What pressing the key `identifier` does in `state`: the next state and the edit
    /// (nil when the key is not on the keyboard in that state).
    public static func press(_ identifier: String, in state: KeyboardState) -> (state: KeyboardState, edit: KeyboardEdit?)? {
        guard let key = rows(for: state).joined().first(where: { $0.identifier == identifier }) else { return nil }
        var next = state
        switch key.kind {
        case .character:
            if state.plane == .letters { next.isShifted = false }
            return (next, .insert(identifier))
        case .shift:
            next.isShifted.toggle()
            return (next, nil)
        case .more:
            next = KeyboardState(plane: state.plane == .letters ? .numbers : .letters)
            return (next, nil)
        case .symbols:
            next = KeyboardState(plane: state.plane == .numbers ? .symbols : .numbers)
            return (next, nil)
        case .space:
            // As on iOS, a space after symbols brings the letters back.
            if state.plane != .letters { next = KeyboardState(plane: .letters) }
            return (next, .insert(" "))
        case .delete:
            return (next, .deleteBackward)
        case .returnKey:
            return (next, .returnKey)
        }
    }

    /// A character the keyboard cannot type.
    public struct UnsupportedCharacter: Error, CustomStringConvertible, Sendable {
        public let character: Character
        public var description: String { "The software keyboard has no key for \"\(character)\"." }
    }

    /// The key identifiers to tap, in order, to type `text` from `state`, as a person would:
    /// switching planes with "more" and "symbols" and pressing shift before each capital
    /// (shift lasts one letter). "\n" is the Return key, " " the space bar.
    public static func keyTaps(toType text: String, from state: KeyboardState = KeyboardState()) throws -> [String] {
        var taps: [String] = []
        var current = state
        for character in text {
            let plan = try path(to: character, from: current)
            for key in plan {
                taps.append(key)
                current = press(key, in: current)!.state
            }
        }
        return taps
    }

    /// The shortest sequence of keys (plane and shift switches, then the key) typing `character`.
    static func path(to character: Character, from state: KeyboardState) throws -> [String] {
        let target: String
        switch character {
        case " ": target = space
        case "\n", "\r": target = returnKey
        default: target = String(character)
        }
        // Breadth-first over keyboard states reachable with the switching keys (at most a few).
        var queue: [(KeyboardState, [String])] = [(state, [])]
        var seen: Set<KeyboardState> = [state]
        var index = 0
        while index < queue.count {
            let (candidate, keys) = queue[index]
            index += 1
            if keyIdentifiers(in: candidate).contains(target) { return keys + [target] }
            for control in [shift, more, symbols] {
                guard let next = press(control, in: candidate)?.state, !seen.contains(next) else { continue }
                seen.insert(next)
                queue.append((next, keys + [control]))
            }
        }
        throw UnsupportedCharacter(character: character)
    }

    /// The keyboard's height on a profile (key rows plus the bottom band on phones without a home button).
    public static func height(for profile: DeviceProfile) -> Double {
        // A phone on its side: shorter keys, and only the home indicator's band below them.
        if profile.isLandscape, !profile.isTablet { return 171 + (profile.cornerRadius > 0 ? 21 : 0) }
        let rows = profile.isTablet ? 264.0 : 216.0
        return rows + (profile.cornerRadius > 0 ? 75 : 0)
    }
}
