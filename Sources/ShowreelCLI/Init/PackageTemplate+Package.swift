import Foundation

extension PackageTemplate {
    /// Flows/: the app as YAML flows for the executable's `run`.
    static let flows: [(path: String, contents: String)] = [
        (
            "Flows/browse.yaml",
            #"""
            # {{NAME}}: an item's details from the mock items source, then back to the list.
            appId: {{BUNDLE}}
            name: "{{NAME}}: an item's details"
            arguments: ["--items-source", "mock"]
            ---
            - launchApp
            - wait: 1
            - tapOn: "Apples"
            - assertVisible: {id: itemName, text: "Apples"}
            - assertVisible: "Crisp and sweet."
            - wait: 1
            - swipe: {edge: left}
            - assertVisible: "Bread"
            - wait: 1
            """#
        ),
        (
            "Flows/add-item.yaml",
            #"""
            # {{NAME}}: an item typed key by key on the software keyboard, then its details.
            appId: {{BUNDLE}}
            name: "{{NAME}}: an item typed on the keyboard"
            arguments: ["--items-source", "mock"]
            ---
            - launchApp
            - wait: 1
            - inputText:
                text: "Milk"
                into: {id: newItem}
                keyDelay: 80ms
            - pressKey: Return
            - tapOn: "Milk"
            - assertVisible: {id: itemNote, text: "Added on this device."}
            - wait: 1
            """#
        ),
        (
            "Flows/debug-drawer.yaml",
            #"""
            # {{NAME}}: the debug drawer (debug builds) says which items source the launch uses.
            appId: {{BUNDLE}}
            name: "{{NAME}}: the debug drawer names the items source"
            ---
            - launchApp
            - wait: 1
            - tapOn: {id: debugDrawer}
            - assertVisible: {id: debugItemsSource, text: "sample"}
            - wait: 1
            - tapOn: {id: debugFormDone}
            - assertVisible: "Tea"
            - wait: 1
            """#
        ),
    ]

    /// The manifest, the README, .gitignore and the CI workflow.
    static let support: [(path: String, contents: String)] = [
        (
            "Package.swift",
            #"""
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "{{NAME}}",
                platforms: [.macOS(.v15)],
                products: [
                    .executable(name: "{{EXEC}}", targets: ["{{EXEC}}"])
                ],
                dependencies: [
                    {{DEPENDENCY}}
                ],
                targets: [
                    // The app, written on Showreel's toolkit.
                    .target(
                        name: "{{APP}}",
                        dependencies: [.product(name: "ShowreelUI", package: "{{IDENTITY}}")],
                        resources: [.copy("Localizable.xcstrings")]),
                    // Every `showreel` verb with the app installed: `swift run {{EXEC}} run Flows`.
                    .executableTarget(
                        name: "{{EXEC}}",
                        dependencies: ["{{APP}}", .product(name: "ShowreelCLI", package: "{{IDENTITY}}")]),
                    // Recorded UI tests: `swift test` leaves a video per test in Recordings/.
                    .testTarget(
                        name: "{{NAME}}UITests",
                        dependencies: ["{{APP}}", .product(name: "ShowreelKit", package: "{{IDENTITY}}")]),
                ]
            )
            """#
        ),
        (
            "README.md",
            #"""
            # {{NAME}}

            ```sh
            swift run {{EXEC}} run Flows   # every flow in Flows/ on its own device: a video each, report.html, in Recordings/
            swift test   # the UI tests: a video each in Recordings/, and Recordings/manifest.json
            ```

            Linux needs FFmpeg, Cairo, Pango, libyuv and xcb's development packages (the list is in
            `.github/workflows/ui.yml`); macOS: `brew install ffmpeg cairo pango libxcb`.

            ## What is here

            - `Sources/{{APP}}`: the app, on Showreel's toolkit. A list of items, each pushed to its
              details; a field that adds an item (typed on the software keyboard); the launch argument
              `--items-source mock|sample` picks where the items come from; debug builds show a debug
              drawer (top right) saying which. What tests touch has an accessibility identifier
              (`newItem`, `apples`, `itemName`, `itemNote`, `debugDrawer`, ...).
            - `Sources/{{EXEC}}`: the executable, every `showreel` verb with the app installed
              (`ShowreelCommand.main(apps: [{{APP}}.definition])`).
            - `Tests/{{NAME}}UITests`: Swift Testing tests with `.device(apps:)` and `.recorded(.on)`, a test
              in each of two languages, and an XCTest case (`ShowreelTestCase`).
            - `Flows/`: YAML flows of the app, for `{{EXEC}} run`.
            - `.github/workflows/ui.yml`: the flows and the tests in two shards, merged into one report
              (`summary.md` on the run's page, the videos and `report.html` as artifacts).

            ## Everything else the executable does

            ```sh
            swift build --product {{EXEC}}
            .build/debug/{{EXEC}} run Flows --captions steps --reel        # captions on every step, and a reel of the videos
            .build/debug/{{EXEC}} device boot --launch {{BUNDLE}} -- --items-source mock   # a device other processes drive
            .build/debug/{{EXEC}} io booted recordVideo demo.mov             # record it (Ctrl-C finishes the file)
            .build/debug/{{EXEC}} host                                     # the tunnel host: runs `showreel ...` as {{EXEC}}
            .build/debug/{{EXEC}} webdriver                                # Appium clients: platformName iOS, appium:bundleId {{BUNDLE}}
            .build/debug/{{EXEC}} --help
            ```
            """#
        ),
        (
            ".gitignore",
            #"""
            .build/
            .swiftpm/
            Recordings/
            """#
        ),
        (
            ".github/workflows/ui.yml",
            #"""
            # The flows and the UI tests in shards (one matrix job each), then one report of them all:
            # summary.md on the run's summary page, the videos, report.html and junit.xml as artifacts.
            name: UI

            on: [push, pull_request]

            jobs:
              shard:
                runs-on: ubuntu-24.04
                strategy:
                  fail-fast: false
                  matrix:
                    shard: [1, 2]
                steps:
                  - uses: actions/checkout@v4
                  - uses: swift-actions/setup-swift@v2
                    with:
                      swift-version: "6.2"
                  - name: System libraries (FFmpeg, Cairo, Pango, libyuv, xcb, fonts)
                    run: |
                      sudo apt-get update -qq
                      sudo apt-get install -y -qq --no-install-recommends pkg-config ffmpeg libavcodec-dev libavformat-dev \
                        libavutil-dev libswscale-dev libswresample-dev libcairo2-dev libpango1.0-dev libyuv-dev libxcb1-dev \
                        libxcb-shm0-dev libxcb-damage0-dev libxcb-xfixes0-dev libxcb-xinput-dev fonts-noto-core fonts-dejavu-core
                  - name: Build
                    run: swift build --build-tests
                  - name: Flows, shard ${{ matrix.shard }} of 2
                    run: .build/debug/{{EXEC}} run Flows --shard ${{ matrix.shard }}/2 --output Recordings/flows
                  - name: UI tests, shard ${{ matrix.shard }} of 2
                    if: always()
                    env:
                      SHOWREEL_RECORDINGS: Recordings/tests
                    # Every other test that `swift test list` names, as one --filter.
                    run: |
                      filter=$(swift test list --skip-build | awk -v shard=${{ matrix.shard }} 'NR % 2 == shard % 2' \
                        | sed -e 's/[][().*+?^$|\\]/\\&/g' -e 's/^/^/' | paste -sd'|' -)
                      if [ -n "$filter" ]; then swift test --skip-build --filter "$filter"; fi
                  - uses: actions/upload-artifact@v4
                    if: always()
                    with:
                      name: recordings-${{ matrix.shard }}
                      path: Recordings

              report:
                needs: shard
                if: always()
                runs-on: ubuntu-24.04
                steps:
                  - uses: actions/checkout@v4
                  - uses: swift-actions/setup-swift@v2
                    with:
                      swift-version: "6.2"
                  - name: System libraries
                    run: |
                      sudo apt-get update -qq
                      sudo apt-get install -y -qq --no-install-recommends pkg-config libavcodec-dev libavformat-dev libavutil-dev \
                        libswscale-dev libswresample-dev libcairo2-dev libpango1.0-dev libyuv-dev libxcb1-dev libxcb-shm0-dev \
                        libxcb-damage0-dev libxcb-xfixes0-dev libxcb-xinput-dev
                  - run: swift build --product {{EXEC}}
                  - uses: actions/download-artifact@v4
                    with:
                      pattern: recordings-*
                      path: Shards
                  # One folder per shard and kind (flows, tests), each with its manifest.json.
                  - name: Merge the shards into one report
                    run: .build/debug/{{EXEC}} report merge $(dirname Shards/*/*/manifest.json) --output Recordings
                  - name: Summary
                    if: always()
                    run: cat Recordings/summary.md >> $GITHUB_STEP_SUMMARY
                  - uses: actions/upload-artifact@v4
                    if: always()
                    with:
                      name: report
                      path: |
                        Recordings
                        Shards
            """#
        ),
    ]
}
