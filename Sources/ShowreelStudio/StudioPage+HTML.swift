/// The studio's one page: plain HTML, its style and script served beside it (no build step, no
/// CDN: it works offline).
enum StudioPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Showreel Studio</title>
        <link rel="stylesheet" href="/studio.css">
        </head>
        <body data-busy="0">
        <header>
          <h1>Showreel Studio</h1>
          <code id="file" data-testid="file"></code>
          <span class="spacer"></span>
          <label>Selector priority <input id="priority" data-testid="priority" size="22" spellcheck="false"></label>
          <button id="save-priority" data-testid="save-priority">Save priority</button>
          <button id="pause" data-testid="pause">Pause</button>
          <button id="run" data-testid="run">Run</button>
        </header>
        <p id="notice" data-testid="notice" hidden></p>
        <main>
          <section class="device">
            <div class="bezel">
              <div id="screen" data-testid="screen" tabindex="0">
                <img id="frame" alt="the device screen" draggable="false">
                <div id="hover" class="outline" hidden></div>
                <div id="selected" class="outline selected" hidden></div>
              </div>
            </div>
            <p class="hint">Click taps, drag swipes (from the edge: back), hold long-presses; with the screen focused, typing types,
              Return and Backspace press their keys; Alt- or Ctrl-click asserts the element visible.</p>
            <p id="error" data-testid="error" role="alert"></p>
          </section>
          <section class="flow">
            <h2>Flow</h2>
            <ol id="flow" data-testid="flow"></ol>
            <section id="run-result" data-testid="run-result" hidden>
              <h2>Run</h2>
              <p id="run-status" data-testid="run-status"></p>
              <video id="run-video" data-testid="run-video" controls muted></video>
              <ol id="chapters" data-testid="chapters"></ol>
              <ul id="flags" data-testid="flags"></ul>
              <a id="run-report" data-testid="run-report" target="_blank">Report with the trace</a> ·
              <a id="run-trace" data-testid="run-trace" target="_blank">Trace (JSON)</a>
              <iframe id="run-report-view" data-testid="run-report-view" title="The run's report: its video, steps and trace" hidden></iframe>
            </section>
          </section>
          <section class="elements">
            <h2>Elements</h2>
            <input id="search" data-testid="search" type="search" placeholder="Search type, label, identifier" spellcheck="false">
            <ul id="tree" data-testid="tree"></ul>
            <div id="inspector" data-testid="inspector"></div>
          </section>
        </main>
        <script src="/studio.js"></script>
        </body>
        </html>
        """
}
