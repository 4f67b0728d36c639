/// The dashboard's script, embedded in the binary and served as `/__admin/dashboard/app.js` (the page's CSP
/// allows no inline script).
///
/// It reads the admin API of the scope chosen (the daemon's `/__admin`, or a session's
/// `/__admin/sessions/{id}`): the journal from `GET requests`, new entries by long polling on
/// `GET dashboard/changes?after=N` (answered when the journal changes, or after 25 s; then only the newest
/// entries are read when the change was appends alone), near misses from
/// `GET dashboard/near-misses/{id}`, the stubs from `GET dashboard/stubs`, scenarios, sessions and the
/// recording status from their routes; "stub from this request" posts to `POST mappings`. The journal is
/// filtered in the page and shown 100 rows a page, so 10,000 entries render as fast as 100. Every value from
/// the daemon is put into the page as text (`textContent`), never as markup.
enum DashboardScript {
    /// The script's source.
    static let source = #"""
        "use strict";
        (() => {
          const pageSize = 100;
          const state = { scope: "", entries: [], page: 0, selected: null, sequence: null, stubs: [], stubPage: 0,
            view: "journal", generation: 0 };
          const $ = (id) => document.getElementById(id);

          function el(tag, props, ...children) {
            const node = document.createElement(tag);
            for (const [key, value] of Object.entries(props || {})) {
              if (key === "class") node.className = value;
              else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
              else node.setAttribute(key, value);
            }
            for (const child of children.flat()) {
              if (child === null || child === undefined) continue;
              node.append(child instanceof Node ? child : document.createTextNode(String(child)));
            }
            return node;
          }

          function api(path) {
            return "/__admin" + (state.scope ? "/sessions/" + encodeURIComponent(state.scope) : "") + path;
          }

          async function getJSON(url) {
            const response = await fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store" });
            if (!response.ok) throw new Error(url + " answered " + response.status);
            return response.json();
          }

          // The journal: newest first, filtered and paged in the page.
          async function loadJournal() {
            const data = await getJSON(api("/requests"));
            state.entries = data.requests || [];
            renderJournal();
          }

          // After `appended` changes, reads only the newest entries: each append adds one to the change
          // count, so when exactly that many entries are new, the rest of the list is still right (less the
          // oldest, which the journal dropped beyond its size). Anything else (a removal, a clearing, a race)
          // reads the whole journal again.
          async function loadNewest(appended) {
            if (appended > 500 || state.entries.length === 0) return loadJournal();
            const data = await getJSON(api("/requests?limit=" + appended));
            const known = new Set(state.entries.map((entry) => entry.id));
            const fresh = (data.requests || []).filter((entry) => !known.has(entry.id));
            if (fresh.length !== appended) return loadJournal();
            state.entries = fresh.concat(state.entries).slice(0, data.meta.total);
            renderJournal();
          }

          function filtered() {
            const method = $("filter-method").value.trim().toUpperCase();
            const path = $("filter-path").value.trim();
            const status = $("filter-status").value.trim();
            const matched = $("filter-matched").value;
            return state.entries.filter((entry) => {
              if (method && entry.request.method !== method) return false;
              if (path && !entry.request.url.includes(path)) return false;
              if (status && !String(entry.response.status).startsWith(status)) return false;
              if (matched === "matched" && !entry.wasMatched) return false;
              if (matched === "unmatched" && entry.wasMatched) return false;
              return true;
            });
          }

          function renderJournal() {
            const entries = filtered();
            const pages = Math.max(1, Math.ceil(entries.length / pageSize));
            state.page = Math.min(state.page, pages - 1);
            const body = $("journal").tBodies[0];
            const rows = entries.slice(state.page * pageSize, (state.page + 1) * pageSize).map((entry) => {
              const violations = (entry.schemaViolations || []).length;
              const stub = (entry.stubMapping ? (entry.stubMapping.name || entry.stubMapping.id) : "unmatched") +
                (violations ? " · " + violations + " schema violation" + (violations === 1 ? "" : "s") : "");
              const row = el("tr", { class: (entry.wasMatched ? "matched" : "unmatched") + (violations ? " drift" : ""),
                "data-id": entry.id,
                onclick: () => select(entry.id) },
                el("td", {}, new Date(entry.request.loggedDate).toLocaleTimeString()),
                el("td", {}, entry.request.method), el("td", {}, entry.request.url),
                el("td", { class: "status" }, entry.response.status), el("td", {}, stub));
              if (entry.id === state.selected) row.classList.add("selected");
              return row;
            });
            body.replaceChildren(...rows);
            $("count").textContent = entries.length + " of " + state.entries.length + " requests";
            $("page").textContent = "page " + (state.page + 1) + " of " + pages;
            $("prev").disabled = state.page === 0;
            $("next").disabled = state.page >= pages - 1;
          }

          function headerTable(headers) {
            const rows = Object.entries(headers || {}).map(([name, value]) =>
              el("tr", {}, el("th", {}, name), el("td", {}, Array.isArray(value) ? value.join(", ") : value)));
            return rows.length ? el("table", {}, rows) : el("p", { class: "muted" }, "none");
          }

          function headerValue(headers, name) {
            for (const [key, value] of Object.entries(headers || {})) {
              if (key.toLowerCase() === name.toLowerCase()) return Array.isArray(value) ? value[0] : value;
            }
            return undefined;
          }

          function bodyView(request) {
            const type = headerValue(request.headers, "Content-Type") || "no Content-Type";
            if (request.body === null) {
              const size = Math.floor(request.bodyAsBase64.length * 3 / 4) -
                (request.bodyAsBase64.endsWith("==") ? 2 : request.bodyAsBase64.endsWith("=") ? 1 : 0);
              return el("p", { class: "muted" }, "binary body, " + size + " bytes, " + type);
            }
            if (request.body === "") return el("p", { class: "muted" }, "no body");
            try {
              return el("pre", { class: "json" }, JSON.stringify(JSON.parse(request.body), null, 2));
            } catch (error) {
              return el("pre", {}, request.body);
            }
          }

          function proposedStub(entry) {
            const request = entry.request;
            const url = new URL(request.absoluteUrl);
            const prefix = state.scope ? "/__sessions/" + state.scope : "";
            const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
            const pattern = { method: request.method, urlPath: decodeURIComponent(path) };
            const query = {};
            for (const [name, parameter] of Object.entries(request.queryParams || {})) {
              query[name] = { equalTo: parameter.values[0] };
            }
            if (Object.keys(query).length) pattern.queryParameters = query;
            if (request.body) {
              try { pattern.bodyPatterns = [{ equalToJson: JSON.parse(request.body) }]; }
              catch (error) { pattern.bodyPatterns = [{ equalTo: request.body }]; }
            }
            return { name: request.method + " " + pattern.urlPath, request: pattern,
              response: { status: 200, headers: { "Content-Type": "application/json" }, jsonBody: {} } };
          }

          function stubEditor(entry) {
            const area = el("textarea", { id: "stub-editor", spellcheck: "false" },
              JSON.stringify(proposedStub(entry), null, 2));
            const result = el("p", { id: "stub-result" });
            // Adds the edited stub at run time, or with "persistent": true (WireMock's field) also writes it to
            // a mapping file under the stub root's mappings/, which the watcher then loads.
            async function post(persistent) {
              result.className = ""; result.textContent = persistent ? "saving…" : "adding…";
              try {
                let body = area.value;
                if (persistent) {
                  const mapping = JSON.parse(area.value);
                  mapping.persistent = true;
                  body = JSON.stringify(mapping, null, 2);
                }
                const response = await fetch(api("/mappings"), { method: "POST",
                  headers: { "Content-Type": "application/json" }, body: body });
                const answer = await response.json();
                if (response.ok) {
                  result.className = "ok";
                  const file = response.headers.get("Pokestub-Mapping-File");
                  result.textContent = (file ? "saved stub " + answer.id + " as " + file : "added stub " + answer.id);
                } else { result.className = "error";
                  result.textContent = (answer.errors || []).map((e) => e.title + ": " + (e.detail || "")).join("; "); }
              } catch (error) { result.className = "error"; result.textContent = String(error); }
            }
            const add = el("button", { id: "stub-add", onclick: () => post(false) }, "Add stub");
            const save = el("button", { id: "stub-save", onclick: () => post(true),
              title: "write it to a mapping file under mappings/ as well" }, "Save under mappings/");
            const buttons = state.scope ? [add] : [add, " ", save];
            return [el("h3", {}, "Stub from this request"), area, ...buttons, result];
          }

          async function select(id) {
            state.selected = id;
            renderJournal();
            const entry = state.entries.find((candidate) => candidate.id === id);
            if (!entry) return;
            const request = entry.request;
            const query = Object.values(request.queryParams || {}).map((parameter) =>
              el("tr", {}, el("th", {}, parameter.key), el("td", {}, parameter.values.join(", "))));
            const answer = entry.wasMatched
              ? ["answered by stub ", el("code", {}, entry.stubMapping.id),
                 entry.stubMapping.name ? " (" + entry.stubMapping.name + ")" : ""]
              : [el("strong", { class: "error" }, "no stub matched")];
            // A stub's statusMessage is kept and shown; the answer carried the standard reason phrase.
            const message = (entry.responseDefinition || {}).statusMessage;
            const status = "status " + entry.response.status +
              (message === undefined ? "" : " (statusMessage " + JSON.stringify(message) + ", sent with the standard reason phrase)");
            const parts = [
              el("h2", {}, request.method + " " + request.url),
              el("p", {}, status + ", ", ...answer, ", " + entry.timing.totalTime + " ms"),
              el("h3", {}, "Headers"), headerTable(request.headers),
              el("h3", {}, "Query"), query.length ? el("table", {}, query) : el("p", { class: "muted" }, "none"),
              el("h3", {}, "Body"), bodyView(request),
            ];
            // An upstream answer that does not fit its endpoint's schema (record, record-missing, proxy modes).
            const violations = entry.schemaViolations || [];
            if (violations.length) {
              parts.push(el("h3", {}, "Schema violations (" + violations[0].schema + ")"),
                el("table", { id: "schema-violations" },
                  el("tr", {}, el("th", {}, "path"), el("th", {}, "kind"), el("th", {}, "message")),
                  ...violations.map((violation) => el("tr", {}, el("td", {}, el("code", {}, violation.path)),
                    el("td", {}, violation.kind), el("td", {}, violation.message)))));
            }
            const nearMisses = el("div", { id: "near-misses" });
            if (!entry.wasMatched) parts.push(el("h3", {}, "Closest stubs"), nearMisses);
            parts.push(...stubEditor(entry));
            $("detail").replaceChildren(...parts);
            if (!entry.wasMatched) {
              try {
                const data = await getJSON(api("/dashboard/near-misses/" + id));
                if (!data.nearMisses.length) nearMisses.append(el("p", { class: "muted" }, "no stubs to compare with"));
                for (const miss of data.nearMisses) {
                  const stub = miss.stubMapping;
                  const rows = miss.differences.map((difference) => el("tr", {},
                    el("th", {}, difference.field), el("td", { class: "expected" }, difference.expected),
                    el("td", { class: "actual" }, difference.actual === null ? "nothing" : difference.actual)));
                  nearMisses.append(el("div", { class: "nearmiss" },
                    el("div", {}, el("strong", {}, (stub.name || stub.id)), " ", el("code", {}, stub.id)),
                    el("table", {}, el("tr", {}, el("th", {}, "field"), el("th", {}, "stub expects"),
                      el("th", {}, "request has")), rows)));
                }
              } catch (error) { nearMisses.append(el("p", { class: "error" }, String(error))); }
            }
          }

          // Live: long polling on the journal's changes, reloading the journal on each.
          async function poll(generation) {
            while (generation === state.generation) {
              try {
                const after = state.sequence === null ? "" : "?after=" + state.sequence;
                const data = await getJSON(api("/dashboard/changes" + after));
                if (generation !== state.generation) return;
                $("live").textContent = "live"; $("live").className = "live on";
                if (data.sequence !== state.sequence) {
                  const appended = state.sequence === null ? Infinity : data.sequence - state.sequence;
                  state.sequence = data.sequence;
                  await loadNewest(appended);
                }
              } catch (error) {
                $("live").textContent = "disconnected, retrying"; $("live").className = "live";
                await new Promise((resolve) => setTimeout(resolve, 2000));
              }
            }
          }

          function restart() {
            state.generation += 1; state.sequence = null; state.page = 0; state.selected = null;
            $("detail").replaceChildren(el("p", { class: "hint" }, "Select a request."));
            poll(state.generation);
            if (state.view !== "journal") showView(state.view);
          }

          async function loadStubs() {
            const data = await getJSON(api("/dashboard/stubs"));
            state.stubs = data.stubs; state.stubPage = 0; renderStubs();
          }

          function renderStubs() {
            const words = $("stub-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
            const stubs = state.stubs.filter((stub) => {
              const text = [stub.id, stub.name, stub.method, stub.url, stub.file, stub.source,
                stub.scenario ? stub.scenario.name : ""].join(" ").toLowerCase();
              return words.every((word) => text.includes(word));
            });
            const pages = Math.max(1, Math.ceil(stubs.length / pageSize));
            state.stubPage = Math.min(state.stubPage, pages - 1);
            $("stubs").tBodies[0].replaceChildren(...stubs.slice(state.stubPage * pageSize,
              (state.stubPage + 1) * pageSize).map((stub) => el("tr", { title: stub.id },
                el("td", {}, stub.method), el("td", {}, stub.url), el("td", {}, stub.name || ""),
                el("td", {}, stub.source), el("td", {}, stub.file ? stub.file + ":" + stub.line : ""),
                el("td", {}, scenarioText(stub.scenario)), el("td", {}, stub.hits))));
            $("stub-count").textContent = stubs.length + " of " + state.stubs.length + " stubs";
            $("stub-page").textContent = "page " + (state.stubPage + 1) + " of " + pages;
          }

          // "name (now S): requires R, sets N" for a stub's part in a scenario.
          function scenarioText(scenario) {
            if (!scenario) return "";
            const parts = [];
            if (scenario.requiredState !== null) parts.push("requires " + scenario.requiredState);
            if (scenario.newState !== null) parts.push("sets " + scenario.newState);
            return scenario.name + " (now " + scenario.state + ")" + (parts.length ? ": " + parts.join(", ") : "");
          }

          async function loadScenarios() {
            const data = await getJSON(api("/scenarios"));
            $("scenarios").tBodies[0].replaceChildren(...data.scenarios.map((scenario) => el("tr", {},
              el("td", {}, scenario.name), el("td", {}, scenario.state),
              el("td", {}, scenario.possibleStates.join(", ")))));
          }

          async function loadSessions() {
            const data = await getJSON("/__admin/sessions");
            const now = Date.now();
            $("sessions").tBodies[0].replaceChildren(...data.sessions.map((session) => el("tr", {},
              el("td", {}, session.name || ""), el("td", {}, session.id),
              el("td", {}, Math.round((now - Date.parse(session.createdAt)) / 1000) + " s"),
              el("td", {}, session.requests), el("td", {}, session.stubs))));
            const scope = $("scope");
            const chosen = scope.value;
            scope.replaceChildren(el("option", { value: "" }, "daemon"),
              ...data.sessions.map((session) => el("option", { value: session.id }, session.name || session.id)));
            scope.value = data.sessions.some((session) => session.id === chosen) ? chosen : "";
          }

          async function loadRecording() {
            try { $("recording").textContent = JSON.stringify(await getJSON("/__admin/recordings/status"), null, 2); }
            catch (error) { $("recording").textContent = String(error); }
          }

          // What the daemon saw of upstream answers against the API's schemas (GET /__admin/contract).
          async function loadContract() {
            const body = $("contract").tBodies[0];
            let data;
            try { data = await getJSON("/__admin/contract"); }
            catch (error) { body.replaceChildren(el("tr", {}, el("td", { colspan: 4 }, String(error)))); return; }
            $("contract-schemas").textContent = data.endpoints.length
              ? "Upstream answers checked against " + data.schemas
              : "No upstream answer checked against " + data.schemas + " yet (record, record-missing and proxy modes check them)";
            body.replaceChildren(...data.endpoints.map((endpoint) => el("tr", {
                class: endpoint.answersNotFitting ? "drift" : "" },
              el("td", {}, el("code", {}, endpoint.endpoint)), el("td", {}, endpoint.answers),
              el("td", {}, endpoint.answersNotFitting),
              el("td", {}, ...endpoint.violations.map((violation) => el("div", {},
                el("code", {}, violation.path), " " + violation.message + " (" + violation.count + "×, last " +
                violation.lastRequest + ")"))))));
          }

          function showView(view) {
            state.view = view;
            for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== "view-" + view;
            for (const button of document.querySelectorAll("nav button")) {
              button.classList.toggle("active", button.dataset.view === view);
            }
            const loaders = { stubs: loadStubs, scenarios: loadScenarios, sessions: loadSessions, recording: loadRecording,
              contract: loadContract };
            if (loaders[view]) loaders[view]().catch((error) => console.error(error));
          }

          document.addEventListener("DOMContentLoaded", () => {
            for (const button of document.querySelectorAll("nav button")) {
              button.addEventListener("click", () => showView(button.dataset.view));
            }
            for (const id of ["filter-method", "filter-path", "filter-status", "filter-matched"]) {
              $(id).addEventListener("input", () => { state.page = 0; renderJournal(); });
            }
            $("filters").addEventListener("submit", (event) => event.preventDefault());
            $("prev").addEventListener("click", () => { state.page -= 1; renderJournal(); });
            $("next").addEventListener("click", () => { state.page += 1; renderJournal(); });
            $("stub-search").addEventListener("input", () => { state.stubPage = 0; renderStubs(); });
            $("stub-prev").addEventListener("click", () => { state.stubPage = Math.max(0, state.stubPage - 1); renderStubs(); });
            $("stub-next").addEventListener("click", () => { state.stubPage += 1; renderStubs(); });
            $("scope").addEventListener("change", () => { state.scope = $("scope").value; restart(); });
            loadSessions().catch(() => {});
            restart();
          });
        })();
        """#
}
