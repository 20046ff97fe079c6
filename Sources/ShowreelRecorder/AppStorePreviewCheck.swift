import CFFmpeg
import Foundation

/// One App Store app preview rule a file breaks, in a sentence that says what the file has.
package struct AppStorePreviewProblem: Sendable, Equatable, CustomStringConvertible {
    package enum Rule: String, Sendable, CaseIterable {
        case container, size, codec, frameRate, bitRate, audio, duration, moovFirst, fileSize, firstFrame
    }

    package var rule: Rule
    package var message: String
    package var description: String { message }
}

/// Checks any video file (not only Showreel's) against App Store Connect's app preview rules
/// (`AppStorePreviewRules`): its size is one of the classes', H.264 High at a constant 30 fps
/// and 10-12 Mbps, an AAC stereo 48 kHz track, 15-30 s, `moov` before `mdat`, at most 500 MB,
/// and a first frame with something drawn on it.
package enum AppStorePreviewCheck {
    /// The rules `url` breaks (empty when it meets them all). With `previewClass` the size must
    /// be that class's; without, any class's. A file FFmpeg cannot read is thrown.
    package static func problems(of url: URL, previewClass: AppStorePreviewClass? = nil) throws(RecorderError) -> [AppStorePreviewProblem] {
        var found: [AppStorePreviewProblem] = []
        func add(_ rule: AppStorePreviewProblem.Rule, _ message: String) {
            found.append(AppStorePreviewProblem(rule: rule, message: message))
        }

        let ext = url.pathExtension.lowercased()
        if !["mov", "mp4", "m4v"].contains(ext) {
            add(.container, "it is a .\(ext) file; app previews are .mov, .mp4 or .m4v")
        }
        let streams = try PreviewStreams(url: url)
        let video = streams.video

        let classes = previewClass.map { [$0] } ?? AppStorePreviewClass.allCases
        if !classes.contains(where: { $0.width == video.width && $0.height == video.height }) {
            let wanted = classes.map { "\($0.size) (\($0.rawValue))" }.joined(separator: ", ")
            add(.size, "it is \(video.width)x\(video.height); an app preview is exactly \(wanted)")
        }
        if video.codec != "h264" {
            add(.codec, "its video is \(video.codec); app previews made here are H.264 High profile")
        } else if video.profile != FF_PROFILE_H264_HIGH {
            add(.codec, "its H.264 is \(video.profileName) profile; app previews are High profile")
        }
        if let rate = streams.constantFrameRate {
            if abs(rate - Double(AppStorePreviewRules.frameRate)) > 0.01 {
                add(.frameRate, "it runs at \(String(format: "%.2f", rate)) fps; app previews run at a constant 30 fps")
            }
        } else {
            add(.frameRate, "its frame rate is variable (\(streams.frameRateSpread)); app previews run at a constant 30 fps")
        }
        let megabits = streams.videoBitRate / 1_000_000
        if !AppStorePreviewRules.bitRates.contains(Int(streams.videoBitRate)) {
            add(.bitRate, "its video runs at \(String(format: "%.2f", megabits)) Mbps; app previews run at 10 to 12 Mbps")
        }
        if let audio = streams.audio {
            var wrong: [String] = []
            if audio.codec != "aac" { wrong.append("is \(audio.codec), not AAC") }
            if audio.channels != AppStorePreviewRules.audioChannels {
                wrong.append("has \(audio.channels) channel\(audio.channels == 1 ? "" : "s"), not 2")
            }
            if audio.sampleRate != AppStorePreviewRules.audioSampleRate { wrong.append("is at \(audio.sampleRate) Hz, not 48 kHz") }
            if !wrong.isEmpty { add(.audio, "its audio " + wrong.joined(separator: ", ") + "; app previews have AAC stereo at 48 kHz") }
        } else {
            add(.audio, "it has no audio track; app previews need one (AAC stereo at 48 kHz; a silent one will do)")
        }
        let slack = AppStorePreviewRules.durationSlack
        let durations = AppStorePreviewRules.durations
        if streams.duration < durations.lowerBound - slack || streams.duration > durations.upperBound + slack {
            add(.duration, "it lasts \(String(format: "%.2f", streams.duration)) s; app previews last 15 to 30 s")
        }
        let atoms = (try? MovieAtoms.topLevel(of: url)) ?? []
        if let moov = atoms.firstIndex(of: "moov"), let mdat = atoms.firstIndex(of: "mdat"), moov > mdat {
            add(.moovFirst, "its moov atom comes after its media data; app previews put it first (faststart)")
        } else if !atoms.contains("moov") {
            add(
                .moovFirst,
                "it has no top-level moov atom before its media (\(atoms.prefix(6).joined(separator: ", "))); app previews put one first")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        if bytes > AppStorePreviewRules.maximumBytes {
            add(.fileSize, "it is \(bytes / 1_000_000) MB; app previews are at most 500 MB")
        }
        if let first = try FrameDecoder.decodeFrames(url, limit: 1).first, let colour = PictureUniformity.flatColour(of: first.pixels) {
            add(
                .firstFrame,
                "its first frame is \(colour == "a single colour" ? "flat, a single colour" : "all \(colour)"); "
                    + "an app preview's first frame shows the app")
        }
        return found
    }
}

/// What the checker reads off a file's streams and packets (no decoding).
private struct PreviewStreams {
    struct Video { var codec: String; var profile: Int32; var profileName: String; var width: Int; var height: Int }
    struct Audio { var codec: String; var channels: Int; var sampleRate: Int }

    var video: Video
    var audio: Audio?
    var duration: Double
    /// Bits a second of the video stream's packets over its length.
    var videoBitRate: Double
    /// Frames a second when every frame lasts as long as the others (within a millisecond).
    var constantFrameRate: Double?
    var frameRateSpread: String

    init(url: URL) throws(RecorderError) {
        let input = try MediaInput(url: url)
        let format = input.format
        let stream = input.stream
        let parameters = stream.pointee.codecpar.pointee
        let profile = parameters.profile
        let profileName = avcodec_profile_name(parameters.codec_id, profile).map { String(cString: $0) } ?? "unknown"
        video = Video(
            codec: String(cString: avcodec_get_name(parameters.codec_id)), profile: profile, profileName: profileName,
            width: Int(parameters.width), height: Int(parameters.height))
        let audioIndex = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        if audioIndex >= 0, let audioStream = format.pointee.streams[Int(audioIndex)] {
            let p = audioStream.pointee.codecpar.pointee
            audio = Audio(
                codec: String(cString: avcodec_get_name(p.codec_id)), channels: Int(p.ch_layout.nb_channels),
                sampleRate: Int(p.sample_rate))
        }
        let timeBase = av_q2d(stream.pointee.time_base)
        var times: [Double] = []
        var bytes = 0
        var end = 0.0
        let nopts = showreel_nopts_value()
        guard let packet = av_packet_alloc() else { throw .outOfMemory("a packet") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            bytes += Int(packet.pointee.size)
            let raw = packet.pointee.pts != nopts ? packet.pointee.pts : packet.pointee.dts
            guard raw != nopts else { continue }
            let time = Double(raw) * timeBase
            times.append(time)
            end = max(end, time + Double(max(packet.pointee.duration, 0)) * timeBase)
        }
        times.sort()
        let streamLength = max(end - (times.first ?? 0), 0)
        let container = format.pointee.duration > 0 ? Double(format.pointee.duration) / Double(AV_TIME_BASE) : streamLength
        duration = container
        videoBitRate = streamLength > 0 ? Double(bytes * 8) / streamLength : 0
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        let shortest = gaps.min() ?? 0, longest = gaps.max() ?? 0
        if let shortest = gaps.min(), shortest > 0, longest - shortest <= 0.001 {
            constantFrameRate = 1 / (gaps.reduce(0, +) / Double(gaps.count))
        } else if gaps.isEmpty, let rate = Optional(av_q2d(stream.pointee.avg_frame_rate)), rate > 0 {
            constantFrameRate = rate
        }
        frameRateSpread =
            shortest > 0
            ? "frames last \(String(format: "%.1f", shortest * 1000)) to \(String(format: "%.1f", longest * 1000)) ms"
            : "frames share timestamps"
    }
}
