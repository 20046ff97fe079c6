import ShowreelStudio
import Testing

/// The flow file as the studio edits it: an existing file's comments and layout survive, and the
/// selector priority is rewritten in its header.
@Suite struct StudioDocumentTests {
    static let text = """
        # Countries: Canada's details.
        appId: dev.showreel.countries
        selectors:
          - text
          - id
        ---
        # Start fresh.
        - launchApp
        - tapOn: "Canada"   # by text
        - inputText:
            text: "hello"
            keyDelay: 60ms

        """

    @Test func anExistingFileKeepsItsStepsAsWritten() {
        let document = StudioDocument(parsing: Self.text)
        #expect(
            document.steps == [
                "# Start fresh.\n- launchApp", "- tapOn: \"Canada\"   # by text", "- inputText:\n    text: \"hello\"\n    keyDelay: 60ms",
            ])
        #expect(document.text == Self.text)
    }

    @Test func thePriorityReplacesTheHeadersList() {
        var document = StudioDocument(parsing: Self.text)
        document.setSelectorPriority(["id", "point"])
        #expect(document.header == "# Countries: Canada's details.\nappId: dev.showreel.countries\nselectors: [id, point]")
        document.setSelectorPriority(["text"])
        #expect(document.header.hasSuffix("\nselectors: [text]"))
    }

    @Test func textIsQuotedSoItStaysText() {
        #expect(YAMLText.quoted("yes") == "\"yes\"")
        #expect(YAMLText.quoted("a: \"b\"\n/c") == #""a: \"b\"\n/c""#)
        #expect(YAMLText.number(120) == "120")
        #expect(YAMLText.number(120.46) == "120.5")
    }
}
