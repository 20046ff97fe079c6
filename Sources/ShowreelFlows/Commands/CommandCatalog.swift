/// Every command a flow may use, by name: the one list the parser reads.
enum CommandCatalog {
    static let grammars: [CommandGrammar] = [
        LaunchAppCommand.grammar, StopAppCommand.grammar, ClearKeychainCommand.grammar,
        TapCommand.grammar, InputTextCommand.grammar, InputRandomCommand.grammar, EraseTextCommand.grammar,
        PressKeyCommand.grammar, HideKeyboardCommand.grammar, SwipeCommand.grammar, ScrollCommand.grammar,
        ScrollUntilVisibleCommand.grammar, BackCommand.grammar, ShakeCommand.grammar, KeyCommandCommand.grammar,
        AssertVisibleCommand.grammar, ExtendedWaitUntilCommand.grammar, AssertTrueCommand.grammar,
        WaitCommand.grammar, WaitForAnimationToEndCommand.grammar, ScreenshotCommand.grammar,
        AssertScreenshotCommand.grammar, StartRecordingCommand.grammar, StopRecordingCommand.grammar, StatusBarCommand.grammar,
        SetAppearanceCommand.grammar,
        EvalScriptCommand.grammar, RunScriptCommand.grammar, RunFlowCommand.grammar, RepeatCommand.grammar,
        RetryCommand.grammar, CaptionCommand.grammar, SystemStep.grammar, RefusedCommand.grammar,
    ]

    /// The names, in the catalog's order (for spelling hints).
    static let names: [String] = grammars.flatMap(\.names)

    private static let byName: [String: CommandGrammar] = Dictionary(
        grammars.flatMap { grammar in grammar.names.map { ($0, grammar) } }, uniquingKeysWith: { first, _ in first })

    static func grammar(named name: String) -> CommandGrammar? { byName[name] }
}
