import ArgumentParser
import Foundation
import ShowreelFlows
import ShowreelRecorder
import ShowreelRender

/// `run`'s matrix (`--language`, `--device`, `--appearance`) and App Store preview options.
struct MatrixOptions: ParsableArguments {
    @Option(
        help:
            "Run every flow in each of these languages (comma-separated codes: en,de,ja,ar or pt-BR); each combination gets its own folder <output>/<language>-<device>-<appearance>/."
    )
    var language: String?

    @Option(
        help: "Run every flow on each of these device profiles (comma-separated: \(DeviceProfile.all.map(\.name).joined(separator: ", ")))."
    )
    var device: String?

    @Option(help: "Run every flow in each of these appearances (comma-separated: light,dark).")
    var appearance: String?

    @Option(
        name: .customLong("app-store-previews"),
        help:
            "Also make an App Store preview of each passing video, for each of these classes its device's shape fits (comma-separated: \(AppStorePreviewClass.names)), into <output>/app-store-previews/."
    )
    var appStorePreviews: String?

    @OptionGroup var fitting: PreviewFittingOptions

    /// The matrix asked for; a bad value is a usage error naming the valid choices.
    func matrix() throws -> RunMatrix {
        do {
            return try RunMatrix(languages: Self.list(language), devices: Self.list(device), appearances: Self.list(appearance))
        } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage)
        }
    }

    /// The previews asked for, checked against the devices the jobs run on: each must fit a
    /// class, or nothing runs.
    func previewPlan(for jobs: [RunJob], scaleChosen: Bool) throws -> AppStorePreviewPlan? {
        guard let appStorePreviews else { return nil }
        var classes: [AppStorePreviewClass] = []
        for name in Self.list(appStorePreviews) {
            guard let previewClass = AppStorePreviewClass(rawValue: name) else {
                throw CLIFailure(
                    message: "Unknown App Store preview class '\(name)'. Choose from: \(AppStorePreviewClass.names).",
                    exitCode: CLIFailure.Code.usage)
            }
            if !classes.contains(previewClass) { classes.append(previewClass) }  // twice would write one file twice
        }
        let plan = AppStorePreviewPlan(
            classes: classes, holdsLast: fitting.holdLast, trims: fitting.trim, audio: try fitting.audioFile(),
            sizesRecording: !scaleChosen)
        var seen = Set<String>()
        for profile in jobs.map(\.flow.device.profile) where seen.insert(profile.name).inserted && plan.classes(for: profile).isEmpty {
            let nearest = AppStorePreviewClass.nearest(width: profile.pixelWidth, height: profile.pixelHeight)
            let hint =
                nearest.fits(width: profile.pixelWidth, height: profile.pixelHeight)
                ? "add \(nearest.rawValue) to --app-store-previews, or leave that device out"
                : "run on a device of a preview class's shape (phone-6.9, phone-5.5, tablet-13)"
            throw CLIFailure(
                message: "The \(profile.name) device (\(profile.pixelWidth)x\(profile.pixelHeight)) has the shape of none of the "
                    + "preview classes asked for (\(classes.map(\.rawValue).joined(separator: ", "))): \(hint).",
                exitCode: CLIFailure.Code.usage)
        }
        return plan
    }

    private static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
