import ShowreelAccessibility
import ShowreelRender
import ShowreelUI
import ShowreelWire

extension Device {
    /// Types `text` on the software keyboard key by key, as a person would: switching to the
    /// symbols plane for "@" and ".", shift for capitals, Return for a newline. With a query,
    /// the field is tapped first to focus it. Pauses `keyDelay` plus up to `jitter` (seeded,
    /// so the same run gives the same video) between keys.
    package func typeText(
        _ text: String, into query: ElementQuery? = nil, keyDelay: Duration = .zero,
        jitter: Duration = .zero, seed: UInt64 = 1
    ) async throws {
        try await traced("type \"\(text)\"" + (query.map { " into \($0)" } ?? ""), query: query) {
            try await typeUntraced(text, into: query, keyDelay: keyDelay, jitter: jitter, seed: seed)
        }
    }

    private func typeUntraced(_ text: String, into query: ElementQuery?, keyDelay: Duration, jitter: Duration, seed: UInt64) async throws {
        if let query { try await tap(query) }
        try ensureRunning()
        try await waitForKeyboard()
        guard scene.isKeyboardVisible else {
            throw DeviceError.invalidRequest("No keyboard is showing: tap a text field first (or pass its query) to type \"\(text)\".")
        }
        let keys: [String]
        do { keys = try SoftwareKeyboard.keyTaps(toType: text, from: scene.keyboardState) } catch {
            throw DeviceError.invalidRequest("Cannot type \"\(text)\": \(error)")
        }
        var random = SeededGenerator(seed: seed)
        for key in keys {
            try await touchKey(key)
            var pause = keyDelay
            if jitter > .zero {
                pause += .nanoseconds(Int64(Double(random.next() % 1_000_000) / 1_000_000 * Double(jitter.nanoseconds)))
            }
            if pause > .zero { try await wait(pause) }
        }
        try await settle()
    }

    /// Taps one key of the software keyboard by its identifier ("a", "@", "shift", "more",
    /// "Return"), then waits until the app is idle (Return may submit a form).
    package func tapKey(_ key: String) async throws {
        try await traced("key \(key)", query: .key(key)) {
            try await touchKey(key)
            try await settle()
        }
    }

    /// One key, without waiting for idle: keys typed in a row follow each other at typing pace.
    private func touchKey(_ key: String) async throws {
        try ensureRunning()
        guard scene.isKeyboardVisible else {
            throw DeviceError.invalidRequest("No keyboard is showing, so there is no key '\(key)': tap a text field first.")
        }
        try await waitForKeyboard()
        guard let frame = scene.keyFrame(key) else {
            throw DeviceError.elementNotFound(query: "keys[\"\(key)\"]", nearby: scene.visibleKeyIdentifiers)
        }
        try await touch(at: frame.center)
    }

    /// Lets the keyboard finish sliding in (at most a second of device time). Only the slide:
    /// other animations, such as a key's touch indicator fading, do not hold the next key back.
    func waitForKeyboard() async throws {
        var budget = Duration.seconds(1)
        while scene.isKeyboardSliding, budget > .zero {
            try await advance(by: Self.frameInterval)
            budget -= Self.frameInterval
        }
    }
}
