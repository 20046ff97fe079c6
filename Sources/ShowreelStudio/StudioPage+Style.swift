extension StudioPage {
    static let style = """
        :root { color-scheme: light dark; font: 14px system-ui, sans-serif; }
        body { margin: 0; }
        header { display: flex; gap: 12px; align-items: center; padding: 8px 16px; border-bottom: 1px solid #8884; }
        header h1 { font-size: 16px; margin: 0; }
        .spacer { flex: 1; }
        main { display: grid; grid-template-columns: auto minmax(280px, 1fr) minmax(280px, 1fr); gap: 16px; padding: 16px; align-items: start; }
        .bezel { padding: 14px; border-radius: 48px; background: #1c1c1e; display: inline-block; }
        /* The screen's box is exactly the device screen, in points: a click maps to a point as is. */
        #screen { position: relative; overflow: hidden; border-radius: 34px; outline: none; cursor: crosshair; background: #000; }
        #screen:focus-visible { box-shadow: 0 0 0 3px #0a84ff; }
        #frame { position: absolute; left: 0; top: 0; width: 100%; height: 100%; user-select: none; pointer-events: none; }
        .outline { position: absolute; border: 2px solid #0a84ff; background: #0a84ff22; pointer-events: none; box-sizing: border-box; }
        .outline.selected { border-color: #ff9f0a; background: #ff9f0a22; }
        .hint { max-width: 420px; color: #888; font-size: 12px; }
        #error { color: #d70015; min-height: 1em; max-width: 420px; }
        #notice { margin: 8px 16px; padding: 8px; background: #ff9f0a33; border-radius: 6px; }
        #flow li { margin: 4px 0; }
        #run-report-view { display: block; width: 100%; height: 640px; margin-top: 8px; border: 1px solid #8884; border-radius: 6px; }
        #run-report-view[hidden] { display: none; }
        #flow li code { white-space: pre-wrap; }
        #flow li.flagged code { color: #d70015; font-weight: bold; }
        #flow button, .elements button { font-size: 11px; }
        #flow textarea { width: 100%; font: 12px ui-monospace, monospace; }
        #tree { font: 12px ui-monospace, monospace; max-height: 420px; overflow: auto; padding-left: 12px; }
        #tree ul { padding-left: 14px; }
        #tree .node { cursor: pointer; }
        #tree .node.selected { background: #ff9f0a44; }
        #inspector table { font-size: 12px; border-collapse: collapse; }
        #inspector td { padding: 1px 6px; vertical-align: top; }
        #inspector .unique { color: #248a3d; }
        #inspector .ambiguous { color: #d70015; }
        #run-video { width: 100%; max-height: 420px; background: #000; }
        #chapters li { cursor: pointer; }
        #chapters li.failed { color: #d70015; }
        """
}
