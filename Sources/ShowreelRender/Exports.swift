// Drawing works on the value types of ShowreelGraphics (geometry, colours, pixel buffers,
// frames, profiles): whoever draws uses both, so one import brings both.
@_exported import ShowreelGraphics
