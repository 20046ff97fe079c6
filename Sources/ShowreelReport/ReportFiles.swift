import Foundation

extension RunManifest {
    /// Writes the run's files side by side into `folder`: manifest.json, junit.xml, report.html
    /// and summary.md (`pathPrefix` leads the videos' paths in JUnit; `summaryLinks` those in summary.md).
    package func writeReport(
        to folder: URL, pathPrefix: String, summaryLinks: String = "", sections: ReportSections? = nil
    ) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(to: folder.appendingPathComponent(RunManifest.fileName))
        try JUnitReport(manifest: self, pathPrefix: pathPrefix).write(to: folder.appendingPathComponent(JUnitReport.fileName))
        var report = HTMLReport(manifest: self)
        report.sections = sections
        try report.write(to: folder.appendingPathComponent(HTMLReport.fileName))
        try RunSummary(manifest: self, linkBase: summaryLinks).write(to: folder.appendingPathComponent(RunSummary.fileName))
    }
}
