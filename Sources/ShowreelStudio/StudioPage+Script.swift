extension StudioPage {
    /// The page's behaviour. State lives on the server (the flow, the device); the page shows it
    /// and sends what the person does, one request at a time, in order.
    static let script = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const screen = $("screen"), frame = $("frame"), hover = $("hover"), selectedBox = $("selected");
        const studio = window.studio = { state: null, tree: [], generation: 0, shown: 0, selected: null, flagged: new Set(), sent: [], events: 0, delays: [] };
        let queue = Promise.resolve(), busy = 0;

        function setBusy(delta) { busy += delta; document.body.dataset.busy = String(busy); }

        async function call(method, path, body) {
          const response = await fetch(path, {
            method, credentials: "same-origin",
            headers: body === undefined ? {} : { "Content-Type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.text();
          const value = text ? JSON.parse(text) : null;
          if (!response.ok) throw new Error((value && value.error) || response.statusText);
          return value;
        }

        // Requests that change something run one after another, in the order they were made.
        function act(path, body) {
          studio.sent.push({ path, body });
          setBusy(1);
          const done = queue.then(async () => {
            try {
              showState(await call("POST", path, body));
              $("error").textContent = "";
            } catch (error) {
              $("error").textContent = error.message;
            } finally {
              setBusy(-1);
            }
          });
          queue = done;
          return done;
        }

        function showState(state) {
          studio.state = state;
          $("file").textContent = state.file;
          screen.style.width = state.width + "px";
          screen.style.height = state.height + "px";
          if (document.activeElement !== $("priority")) $("priority").value = state.priority.join(", ");
          $("pause").textContent = state.paused ? "Resume" : "Pause";
          $("pause").setAttribute("aria-pressed", String(state.paused));
          document.body.dataset.paused = String(state.paused);
          $("notice").hidden = !state.notice;
          $("notice").textContent = state.notice || "";
          const list = $("flow");
          list.replaceChildren(...state.steps.map((text, index) => stepItem(text, index)));
          list.dataset.count = String(state.steps.length);
        }

        function button(label, action, index) {
          const element = document.createElement("button");
          element.textContent = label;
          element.dataset.action = action;
          element.dataset.index = String(index);
          return element;
        }

        function stepItem(text, index) {
          const item = document.createElement("li");
          item.dataset.testid = "step";
          item.dataset.index = String(index);
          if (studio.flagged.has(index)) item.classList.add("flagged");
          const code = document.createElement("code");
          code.textContent = text;
          item.append(code, " ", button("Run", "run", index), button("Edit", "edit", index),
            button("Branch here", "branch", index), button("Delete", "delete", index));
          return item;
        }

        $("flow").addEventListener("click", (event) => {
          const target = event.target;
          if (!(target instanceof HTMLButtonElement)) return;
          const index = Number(target.dataset.index);
          switch (target.dataset.action) {
            case "run": act("/api/steps/run", { index }); break;
            case "delete": act("/api/steps/delete", { index }); break;
            case "branch": act("/api/branch", { index }); break;
            case "edit": {
              const item = target.closest("li");
              const area = document.createElement("textarea");
              area.dataset.testid = "step-editor";
              area.value = studio.state.steps[index];
              area.rows = Math.max(2, area.value.split("\n").length);
              item.replaceChildren(area, button("Save", "save", index), button("Cancel", "cancel", index));
              area.focus();
              break;
            }
            case "save": act("/api/steps/edit", { index, text: target.closest("li").querySelector("textarea").value }); break;
            case "cancel": showState(studio.state); break;
          }
        });

        $("pause").addEventListener("click", () => act("/api/pause", { paused: !studio.state.paused }));
        $("save-priority").addEventListener("click", () =>
          act("/api/priority", { priority: $("priority").value.split(/[\s,]+/).filter(Boolean) }));

        // The live screen: each event names a new frame and carries the elements of that moment.
        function connect() {
          const events = new EventSource("/events");
          events.addEventListener("frame", (event) => {
            const data = JSON.parse(event.data);
            studio.generation = data.n;
            studio.events += 1;
            studio.tree = data.tree;
            const image = new Image();
            image.onload = () => {
              if (data.n < studio.shown) return;
              frame.src = image.src;
              studio.shown = data.n;
              // From the frame reaching the studio to its picture here (the bench's figure).
              studio.delays.push(Date.now() - data.at);
              if (studio.delays.length > 500) studio.delays.shift();
              screen.dataset.frame = String(data.n);
            };
            image.src = "/frame.png?n=" + data.n;
            renderTree();
          });
          events.onerror = () => { screen.dataset.stream = "reconnecting"; };
          events.onopen = () => { screen.dataset.stream = "open"; };
        }

        function flatten(nodes, into = []) {
          for (const node of nodes) { into.push(node); flatten(node.children, into); }
          return into;
        }

        // The element a finger at (x, y) means, as the studio picks it (ElementIndex): the deepest
        // control holding the point, else the deepest element, hittable ones first.
        function greater(a, b) {
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
          return false;
        }

        function elementAt(x, y) {
          let best = null, bestKey = null;
          flatten(studio.tree).forEach((node, order) => {
            if (node.width <= 0 || node.height <= 0) return;
            if (x < node.x || x >= node.x + node.width || y < node.y || y >= node.y + node.height) return;
            const control = ["button", "cell", "textField", "secureTextField", "switch", "key"].includes(node.type);
            const generic = (node.type === "window" || node.type === "other") && !node.id;
            const key = [control ? 1 : 0, generic ? 0 : 1, node.hittable ? 1 : 0, node.path.split(".").length, order];
            if (!bestKey || greater(key, bestKey)) { best = node; bestKey = key; }
          });
          return best;
        }

        function place(box, node) {
          if (!node) { box.hidden = true; return; }
          box.hidden = false;
          Object.assign(box.style, { left: node.x + "px", top: node.y + "px", width: node.width + "px", height: node.height + "px" });
        }

        function devicePoint(event) {
          const rect = screen.getBoundingClientRect();
          const scale = studio.state ? studio.state.width / rect.width : 1;
          return { x: Math.round((event.clientX - rect.left) * scale * 10) / 10, y: Math.round((event.clientY - rect.top) * scale * 10) / 10 };
        }

        let press = null;
        screen.addEventListener("mousemove", (event) => {
          const point = devicePoint(event);
          const node = elementAt(point.x, point.y);
          place(hover, node);
          screen.dataset.hover = node ? node.path : "";
        });
        screen.addEventListener("mouseleave", () => place(hover, null));
        screen.addEventListener("mousedown", (event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          screen.focus();
          press = { start: devicePoint(event), time: performance.now(), assert: event.altKey || event.ctrlKey || event.metaKey };
        });
        window.addEventListener("mouseup", (event) => {
          if (!press || event.button !== 0) return;
          const end = devicePoint(event), held = performance.now() - press.time, start = press.start;
          const assert = press.assert || event.altKey || event.ctrlKey || event.metaKey;
          press = null;
          const distance = Math.hypot(end.x - start.x, end.y - start.y);
          if (distance >= 10) {
            act("/api/gesture", { kind: "swipe", x: start.x, y: start.y, toX: end.x, toY: end.y, milliseconds: Math.round(held) });
          } else if (assert) {
            act("/api/gesture", { kind: "assert", x: start.x, y: start.y });
          } else if (held >= 600) {
            act("/api/gesture", { kind: "longPress", x: start.x, y: start.y, milliseconds: Math.round(held) });
          } else {
            act("/api/gesture", { kind: "tap", x: start.x, y: start.y });
          }
        });

        // Typing: characters typed while a request runs go together, as one inputText.
        let pendingText = "";
        screen.addEventListener("keydown", (event) => {
          if (event.metaKey || event.ctrlKey || event.altKey) return;
          if (event.key === "Enter" || event.key === "Backspace") {
            event.preventDefault();
            flushText();
            act("/api/gesture", { kind: "key", text: event.key === "Enter" ? "Return" : "Backspace" });
          } else if (event.key.length === 1) {
            event.preventDefault();
            const first = pendingText === "";
            pendingText += event.key;
            if (first) { setBusy(1); queue.then(() => { setBusy(-1); flushText(); }); }
          }
        });
        function flushText() {
          if (!pendingText) return;
          const text = pendingText;
          pendingText = "";
          act("/api/gesture", { kind: "type", text });
        }

        // The element tree: searchable; a selected element is outlined and its selectors listed.
        let lastTree = "";
        function renderTree() {
          const query = $("search").value.trim().toLowerCase();
          const key = JSON.stringify(studio.tree) + "|" + query;
          if (key === lastTree) return;
          lastTree = key;
          const describe = (node) => node.type + (node.label ? ` "${node.label}"` : "") + (node.id ? ` #${node.id}` : "");
          const item = (node, withChildren) => {
            const li = document.createElement("li");
            const span = document.createElement("span");
            span.className = "node" + (studio.selected === node.path ? " selected" : "");
            span.dataset.path = node.path;
            span.dataset.testid = "element";
            span.textContent = describe(node);
            li.append(span);
            if (withChildren && node.children.length) {
              const ul = document.createElement("ul");
              ul.append(...node.children.map((child) => item(child, true)));
              li.append(ul);
            }
            return li;
          };
          const nodes = query
            ? flatten(studio.tree).filter((node) => describe(node).toLowerCase().includes(query) || (node.value || "").toLowerCase().includes(query)).map((node) => item(node, false))
            : studio.tree.map((node) => item(node, true));
          $("tree").replaceChildren(...nodes);
          const selected = flatten(studio.tree).find((node) => node.path === studio.selected);
          place(selectedBox, selected || null);
        }
        $("search").addEventListener("input", renderTree);
        $("tree").addEventListener("click", async (event) => {
          const span = event.target.closest(".node");
          if (!span) return;
          studio.selected = span.dataset.path;
          lastTree = "";
          renderTree();
          const node = flatten(studio.tree).find((n) => n.path === studio.selected);
          const selectors = await call("GET", "/api/selectors?path=" + encodeURIComponent(studio.selected));
          const table = document.createElement("table");
          const row = (name, value) => {
            const tr = table.insertRow();
            tr.insertCell().textContent = name;
            tr.insertCell().textContent = value;
          };
          for (const name of ["type", "id", "label", "value", "placeholder", "enabled", "hittable"]) {
            if (node[name] !== undefined && node[name] !== null && node[name] !== "") row(name, String(node[name]));
          }
          row("frame", `${node.x}, ${node.y}, ${node.width} x ${node.height}`);
          const list = document.createElement("ul");
          list.dataset.testid = "selectors";
          for (const selector of selectors) {
            const li = document.createElement("li");
            li.dataset.testid = "selector";
            li.dataset.unique = String(selector.isUnique);
            li.className = selector.isUnique ? "unique" : "ambiguous";
            li.textContent = `${selector.kind}: ${selector.yaml} — ${selector.isUnique ? "unique" : "matches " + selector.matches}`;
            list.append(li);
          }
          $("inspector").replaceChildren(table, list);
        });

        // Run: the whole flow as `showreel run` runs it, its video with the steps as chapters.
        $("run").addEventListener("click", () => {
          setBusy(1);
          queue = queue.then(async () => {
            $("run-status").textContent = "Running…";
            $("run-result").hidden = false;
            try {
              const result = await call("POST", "/api/run");
              $("run-status").textContent = `Run ${result.id}: ${result.status}` + (result.failure ? ` — ${result.failure}` : "");
              $("run-result").dataset.status = result.status;
              const video = $("run-video");
              if (result.video) video.src = result.video;
              $("chapters").replaceChildren(...result.chapters.map((chapter) => {
                const li = document.createElement("li");
                li.textContent = `${chapter.time.toFixed(2)} s — ${chapter.title}`;
                li.className = chapter.status;
                li.addEventListener("click", () => { video.currentTime = chapter.time; });
                return li;
              }));
              studio.flagged = new Set(result.flagged.map((flag) => flag.step));
              $("flags").replaceChildren(...result.flagged.map((flag) => {
                const li = document.createElement("li");
                li.dataset.testid = "flag";
                li.dataset.step = String(flag.step);
                li.textContent = `Step ${flag.step + 1}: ${flag.message}`;
                if (flag.time !== null && flag.time !== undefined) li.addEventListener("click", () => { video.currentTime = flag.time; });
                return li;
              }));
              if (result.trace) $("run-trace").href = result.trace;
              if (result.report) {
                // The trace as the report shows it (pictures, tree, target), in the page itself.
                $("run-report").href = result.report;
                $("run-report-view").src = result.report;
                $("run-report-view").hidden = false;
              }
              showState(studio.state);
            } catch (error) {
              $("run-status").textContent = error.message;
            } finally {
              setBusy(-1);
            }
          });
        });

        call("GET", "/api/state").then((state) => { showState(state); connect(); });
        """#
}
