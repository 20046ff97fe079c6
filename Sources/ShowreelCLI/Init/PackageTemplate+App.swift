import Foundation

extension PackageTemplate {
    /// The app target: the app on the toolkit, its items sources, screens, debug drawer and strings.
    static let app: [(path: String, contents: String)] = [
        (
            "Sources/{{APP}}/{{APP}}.swift",
            #"""
            import Foundation
            import ShowreelUI

            /// {{NAME}}: a list of items, each pushed to its details, and a field that adds one.
            /// `--items-source mock|sample` picks where the items come from (sample by default); debug
            /// builds show a debug drawer (top right) that says which.
            package enum {{APP}} {
                package static let bundleIdentifier = "{{BUNDLE}}"
                package static let sourceArgument = "--items-source"

                /// The app as a device installs it: `.device(apps: [{{APP}}.definition])` in tests, and
                /// `ShowreelCommand.main(apps: [{{APP}}.definition])` in the `{{EXEC}}` executable.
                package static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "{{NAME}}") { context in
                    let source = try itemSource(for: context)
                    let catalog = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings")
                    let strings = try LocalizedStrings.load(catalog, context: context, bundleIdentifier: bundleIdentifier)
                    let navigation = NavigationController(rootScreen: ItemListScreen(items: source.items(strings), strings: strings))
                    navigation.prefersLargeTitles = true
                    navigation.layoutDirection = strings.layoutDirection
                    #if DEBUG
                    navigation.sceneAccessories = [DebugDrawer { DebugFormForDebug(source: source) }]
                    #endif
                    return navigation
                }

                /// The source the launch arguments ask for; any other name stops the app with a fatal error.
                package static func itemSource(for context: LaunchContext) throws -> any ItemSource {
                    switch context.option(for: sourceArgument) ?? "sample" {
                    case "mock": return MockItemSource()
                    case "sample": return SampleItemSource()
                    case let other: throw AppFatalError("Unknown items source '\(other)': use mock or sample.")
                    }
                }
            }
            """#
        ),
        (
            "Sources/{{APP}}/Items.swift",
            #"""
            import ShowreelUI

            /// One thing on the list: `id` is what tests find it by, in every language.
            package struct Item: Sendable, Equatable {
                package var id: String
                package var name: String
                package var note: String

                package init(id: String, name: String, note: String) {
                    self.id = id
                    self.name = name
                    self.note = note
                }
            }

            /// Where the list comes from: the dependency the launch argument `--items-source` picks.
            package protocol ItemSource: Sendable {
                /// A name for the debug drawer.
                var name: String { get }
                /// The items, named in the launch's language.
                func items(_ strings: LocalizedStrings) -> [Item]
            }

            /// Fixed data for tests and flows: the same three items on every run.
            package struct MockItemSource: ItemSource {
                package let name = "mock"
                package init() {}

                package func items(_ strings: LocalizedStrings) -> [Item] {
                    [
                        Item(id: "apples", name: strings("Apples"), note: strings("Crisp and sweet.")),
                        Item(id: "bread", name: strings("Bread"), note: strings("Baked this morning.")),
                        Item(id: "coffee", name: strings("Coffee"), note: strings("Freshly ground.")),
                    ]
                }
            }

            /// What the app shows without the mock: in a real app, the network or a database.
            package struct SampleItemSource: ItemSource {
                package let name = "sample"
                package init() {}

                package func items(_ strings: LocalizedStrings) -> [Item] {
                    [
                        Item(id: "tea", name: strings("Tea"), note: strings("Green, loose leaf.")),
                        Item(id: "rice", name: strings("Rice"), note: strings("Long grain.")),
                        Item(id: "lemons", name: strings("Lemons"), note: strings("For the tea.")),
                    ]
                }
            }
            """#
        ),
        (
            "Sources/{{APP}}/ItemListScreen.swift",
            #"""
            import ShowreelUI

            /// The list: a field that adds an item (typed on the keyboard, Return adds it), then one row
            /// per item, each pushing its details.
            final class ItemListScreen: TableScreen {
                let strings: LocalizedStrings
                private(set) var items: [Item]

                init(items: [Item], strings: LocalizedStrings) {
                    self.items = items
                    self.strings = strings
                    super.init(title: strings("Items"), identifier: "itemList")
                }

                override func viewDidLoad() {
                    super.viewDidLoad()
                    reload()
                }

                private func reload() {
                    table.sections = [
                        TableSection(
                            header: strings("Add"),
                            rows: [
                                .textField(placeholder: strings("New item"), identifier: "newItem") { [weak self] field in
                                    field.returnKeyType = .done
                                    field.onReturn = { field in self?.add(field) }
                                }
                            ]),
                        TableSection(
                            header: strings("Items"),
                            rows: items.map { item in
                                TableRow(title: item.name, accessory: .disclosureIndicator, identifier: item.id) { [weak self] in
                                    self?.show(item)
                                }
                            }),
                    ]
                }

                private func add(_ field: TextField) {
                    let name = field.text.trimmingCharacters(in: .whitespaces)
                    field.resignFirstResponder()
                    guard !name.isEmpty else { return }
                    items.append(Item(id: name, name: name, note: strings("Added on this device.")))
                    reload()
                }

                private func show(_ item: Item) {
                    navigationController?.push(ItemDetailScreen(item: item, strings: strings))
                }
            }
            """#
        ),
        (
            "Sources/{{APP}}/ItemDetailScreen.swift",
            #"""
            import ShowreelUI

            /// One item's details, each value identified for tests.
            final class ItemDetailScreen: TableScreen {
                let item: Item
                let strings: LocalizedStrings

                init(item: Item, strings: LocalizedStrings) {
                    self.item = item
                    self.strings = strings
                    super.init(title: item.name, identifier: "itemDetail")
                }

                override func viewDidLoad() {
                    super.viewDidLoad()
                    table.sections = [
                        TableSection(rows: [
                            TableRow(
                                title: strings("Name"), detail: item.name, style: .caption, identifier: "itemNameRow",
                                detailIdentifier: "itemName"),
                            TableRow(
                                title: strings("Note"), detail: item.note, style: .caption, identifier: "itemNoteRow",
                                detailIdentifier: "itemNote"),
                        ])
                    ]
                }
            }
            """#
        ),
        (
            "Sources/{{APP}}/DebugFormForDebug.swift",
            #"""
            #if DEBUG
            import ShowreelUI

            /// The debug drawer's form (debug builds only): which items source this launch uses.
            final class DebugFormForDebug: TableScreen {
                let source: any ItemSource

                init(source: any ItemSource) {
                    self.source = source
                    super.init(title: "Debug", identifier: "debugForm")
                }

                override func viewDidLoad() {
                    super.viewDidLoad()
                    table.sections = [
                        TableSection(
                            header: "Data", footer: "Launch with --items-source mock or sample to change it.",
                            rows: [
                                .value("Items source", source.name, identifier: "debugItemsSourceRow", valueIdentifier: "debugItemsSource")
                            ])
                    ]
                }
            }
            #endif
            """#
        ),
        (
            "Sources/{{APP}}/Localizable.xcstrings",
            #"""
            {
              "sourceLanguage": "en",
              "version": "1.0",
              "strings": {
                "Items": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Articles"
                      }
                    }
                  }
                },
                "Add": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Ajouter"
                      }
                    }
                  }
                },
                "New item": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Nouvel article"
                      }
                    }
                  }
                },
                "Name": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Nom"
                      }
                    }
                  }
                },
                "Note": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Note"
                      }
                    }
                  }
                },
                "Apples": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Pommes"
                      }
                    }
                  }
                },
                "Bread": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Pain"
                      }
                    }
                  }
                },
                "Coffee": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Café"
                      }
                    }
                  }
                },
                "Tea": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Thé"
                      }
                    }
                  }
                },
                "Rice": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Riz"
                      }
                    }
                  }
                },
                "Lemons": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Citrons"
                      }
                    }
                  }
                },
                "Crisp and sweet.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Croquantes et sucrées."
                      }
                    }
                  }
                },
                "Baked this morning.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Cuit ce matin."
                      }
                    }
                  }
                },
                "Freshly ground.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Fraîchement moulu."
                      }
                    }
                  }
                },
                "Green, loose leaf.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Vert, en vrac."
                      }
                    }
                  }
                },
                "Long grain.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Grain long."
                      }
                    }
                  }
                },
                "For the tea.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Pour le thé."
                      }
                    }
                  }
                },
                "Added on this device.": {
                  "localizations": {
                    "fr": {
                      "stringUnit": {
                        "state": "translated",
                        "value": "Ajouté sur cet appareil."
                      }
                    }
                  }
                }
              }
            }
            """#
        ),
    ]

    /// The executable target: every verb with the app installed.
    static let executableFiles: [(path: String, contents: String)] = [
        (
            "Sources/{{EXEC}}/{{NAME}}Command.swift",
            #"""
            import ShowreelCLI
            import {{APP}}

            /// Every `showreel` verb with {{NAME}} installed: `{{EXEC}} run Flows`, `{{EXEC}} device boot --launch {{BUNDLE}}`,
            /// `{{EXEC}} webdriver`, `{{EXEC}} host`, ... (`{{EXEC}} --help` lists them).
            @main
            struct {{NAME}}Command {
                static func main() async {
                    await ShowreelCommand.main(apps: [{{APP}}.definition])
                }
            }
            """#
        )
    ]
}
