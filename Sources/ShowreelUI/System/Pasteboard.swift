/// The device's one pasteboard, shared by every app on it (`UIPasteboard.general`): text only.
///
/// The scene owns it, so apps reach it through any on-screen view (`view.scene?.pasteboard`),
/// the text field's edit menu copies to it and pastes from it, and the device sets and reads
/// it from outside (`showreel device pbcopy` and `pbpaste`).
public final class Pasteboard {
    /// The text on the pasteboard; nil while nothing was copied.
    public var string: String?

    public init() {}

    /// Whether there is text to paste (the edit menu offers Paste only then).
    public var hasStrings: Bool { string != nil }
}
