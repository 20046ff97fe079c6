import Foundation
import ShowreelWire

/// A trace's file, written by `JSONWriter`: the bytes `WireJSON.encoder` makes of it (keys
/// sorted here by hand), at a fraction of the cost. A test waits for its trace's file before it
/// ends, and a report holds every entry's trace.
extension RunTrace {
    /// The trace's file: compact JSON.
    package func encoded() throws -> Data {
        var json = JSONWriter(reservingCapacity: pictures.reduce(64 << 10) { $0 + $1.utf8.count + 3 })
        try json.object { json in
            json.key("pictures")
            json.array(pictures) { $0.string($1) }
            json.key("screen")
            try json.object { json in
                try json.member("height", screen.height)
                try json.member("width", screen.width)
            }
            json.key("steps")
            try json.array(steps) { try $1.write(to: &$0) }
        }
        return json.data
    }
}

extension RunTrace.Step {
    fileprivate func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.member("after", after)
            json.member("before", before)
            try json.member("end", end)
            json.member("error", error)
            json.member("query", query)
            try json.member("start", start)
            json.member("status", status.rawValue)
            if let target {
                json.key("target")
                try target.write(to: &json)
            }
            json.member("title", title)
            json.key("tree")
            try json.array(tree) { try $1.write(to: &$0) }
        }
    }
}

extension RunTrace.Element {
    fileprivate func write(to json: inout JSONWriter) throws {
        try json.object { json in
            json.key("children")
            try json.array(children) { try $1.write(to: &$0) }
            json.member("enabled", enabled)
            json.key("frame")
            try frame.write(to: &json)
            json.member("hittable", hittable)
            json.member("identifier", identifier)
            json.member("label", label)
            json.member("type", type)
            json.member("value", value)
        }
    }
}

extension RunTrace.Rect {
    fileprivate func write(to json: inout JSONWriter) throws {
        try json.object { json in
            try json.member("height", height)
            try json.member("width", width)
            try json.member("x", x)
            try json.member("y", y)
        }
    }
}
