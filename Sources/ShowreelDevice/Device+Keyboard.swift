import ShowreelRender
import ShowreelWire

extension Device {
    /// Types `text` on the software keyboard key by key, as a person would: switching to the
    /// symbols plane for "@" and ".", shift for capitals, Return for a newline. With a query,
    /// the field is tapped first to focus it. Pauses `keyDelay` plus up to `jitter` (seeded,
    /// so the same run gives the same video) between keys.
    public func typeText(_ text: String, into query: ElementQuery? = nil, keyDelay: Duration = .zero,
                         jitter: Duration = .zero, seed: UInt64 = 1) async throws {
        if let query { try await tap(query) }
        try ensureRunning()
        guard !elements(.descendants(type: "keyboard")).isEmpty else {
            throw DeviceError.invalidRequest("No keyboard is showing: tap a text field first (or pass its query) to type \"\(text)\".")
        }
        var random = SplitMix64(seed: seed)
        for character in text {
            try await press(character)
            var pause = keyDelay
            if jitter > .zero {
                pause += .nanoseconds(Int64(Double(random.next() % 1_000_000) / 1_000_000 * Double(jitter.nanoseconds)))
            }
            if pause > .zero { try await wait(pause) }
        }
    }

    /// Taps one key of the software keyboard by its identifier ("a", "@", "shift", "more", "Return").
    public func tapKey(_ key: String) async throws {
        try await tap(.key(key))
    }

    /// Finds the key for one character, switching plane or shift as a person would.
    private func press(_ character: Character) async throws {
        let key = Self.keyIdentifier(for: character)
        if try await tapIfVisible(key) { return }
        if character.isLetter {
            // Letters live on the first plane; capitals need shift (which lasts one letter).
            if elements(.key(String(character).lowercased())).isEmpty && elements(.key(String(character).uppercased())).isEmpty {
                try await tapKey("more")
            }
            if try await tapIfVisible(key) { return }
            try await tapKey("shift")
            if try await tapIfVisible(key) { return }
        } else {
            try await tapKey("more")
            if try await tapIfVisible(key) { return }
            try await tapKey("more")
            if try await tapIfVisible(key) { return }
        }
        let keys = elements(.descendants(type: "key")).map(\.identifier)
        throw DeviceError.elementNotFound(query: "the key for \"\(character)\"", nearby: keys)
    }

    private func tapIfVisible(_ key: String) async throws -> Bool {
        guard let element = elements(.key(key)).first(where: \.isHittable) else { return false }
        try await tap(at: element.frame.center)
        return true
    }

    static func keyIdentifier(for character: Character) -> String {
        switch character {
        case " ": return "space"
        case "\n": return "Return"
        default: return String(character)
        }
    }
}

/// A small, seedable generator: key jitter must repeat exactly from run to run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000_000 + atto / 1_000_000_000
    }
}
