/// The dashboard's page and style sheet, embedded in the binary: nothing is fetched from a CDN and nothing is
/// built at install time. The script is ``DashboardScript``.
///
/// Every asset is served with a Content-Security-Policy that allows only this origin's own script, style and
/// requests (`default-src 'self'`; no inline script or style, no `eval`, no framing, no form posts), so data
/// from the journal can never run as code in the page even if it were put into the document as markup (the
/// script only ever sets text).
enum DashboardAssets {
    /// The Content-Security-Policy of every dashboard asset (CSP Level 3, W3C).
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// An asset's response: the type with `charset=utf-8`, the CSP, no sniffing, no referrer, no caching.
    static func response(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                (name: "Content-Type", value: type + "; charset=utf-8"),
                (name: "Content-Security-Policy", value: contentSecurityPolicy),
                (name: "X-Content-Type-Options", value: "nosniff"),
                (name: "Referrer-Policy", value: "no-referrer"),
                (name: "Cache-Control", value: "no-store"),
                (name: "X-Frame-Options", value: "DENY"),
            ]), body: ResponseBody(text))
    }

    /// The page: a header with the views, and one section per view that the script fills.
    static let html = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pokestub dashboard</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/__admin/dashboard/app.css">
        <script src="/__admin/dashboard/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>pokestub</h1>
          <nav>
            <button data-view="journal" class="active" id="tab-journal">Journal</button>
            <button data-view="stubs" id="tab-stubs">Stubs</button>
            <button data-view="scenarios" id="tab-scenarios">Scenarios</button>
            <button data-view="sessions" id="tab-sessions">Sessions</button>
            <button data-view="recording" id="tab-recording">Recording</button>
            <button data-view="contract" id="tab-contract">Contract</button>
          </nav>
          <label>Scope <select id="scope"><option value="">daemon</option></select></label>
          <span id="live" class="live">connecting…</span>
        </header>
        <main>
          <section id="view-journal" class="view">
            <form id="filters" class="filters">
              <input id="filter-method" placeholder="method" size="7">
              <input id="filter-path" placeholder="path contains" size="24">
              <input id="filter-status" placeholder="status" size="5">
              <select id="filter-matched">
                <option value="">matched and unmatched</option>
                <option value="matched">matched</option>
                <option value="unmatched">unmatched</option>
              </select>
              <span id="count"></span>
            </form>
            <div class="split">
              <div class="list">
                <table id="journal"><thead><tr><th>time</th><th>method</th><th>URL</th><th>status</th><th>stub</th></tr></thead><tbody></tbody></table>
                <div class="pager"><button id="prev">newer</button> <span id="page"></span> <button id="next">older</button></div>
              </div>
              <div id="detail" class="detail"><p class="hint">Select a request.</p></div>
            </div>
          </section>
          <section id="view-stubs" class="view" hidden>
            <input id="stub-search" placeholder="search id, name, method, URL, file, source, scenario" size="40"> <span id="stub-count"></span>
            <table id="stubs"><thead><tr><th>method</th><th>URL</th><th>name</th><th>source</th><th>file:line</th><th>scenario</th><th>hits</th></tr></thead><tbody></tbody></table>
            <div class="pager"><button id="stub-prev">previous</button> <span id="stub-page"></span> <button id="stub-next">next</button></div>
          </section>
          <section id="view-scenarios" class="view" hidden><table id="scenarios"><thead><tr><th>scenario</th><th>state</th><th>possible states</th></tr></thead><tbody></tbody></table></section>
          <section id="view-sessions" class="view" hidden><table id="sessions"><thead><tr><th>name</th><th>id</th><th>age</th><th>requests</th><th>stubs</th></tr></thead><tbody></tbody></table></section>
          <section id="view-recording" class="view" hidden><pre id="recording"></pre></section>
          <section id="view-contract" class="view" hidden><p id="contract-schemas" class="muted"></p><table id="contract"><thead><tr><th>endpoint</th><th>answers</th><th>not fitting</th><th>violations</th></tr></thead><tbody></tbody></table></section>
        </main>
        </body>
        </html>
        """#

    /// The style sheet.
    static let css = #"""
        :root { --fg: #1d2330; --muted: #667085; --line: #d9dee8; --bg: #f6f7fb; --accent: #2f5bd3;
          --miss: #b42318; --missbg: #fdecea; --hit: #067647; font-family: system-ui, sans-serif; font-size: 14px; }
        body { margin: 0; color: var(--fg); background: var(--bg); }
        header { display: flex; gap: 16px; align-items: center; padding: 8px 16px; background: #fff;
          border-bottom: 1px solid var(--line); position: sticky; top: 0; }
        h1 { font-size: 18px; margin: 0; }
        nav button { border: 0; background: none; padding: 6px 10px; cursor: pointer; border-radius: 6px; }
        nav button.active { background: var(--accent); color: #fff; }
        .live { margin-left: auto; color: var(--muted); }
        .live.on { color: var(--hit); }
        main { padding: 12px 16px; }
        .filters { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; }
        .split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; }
        table { border-collapse: collapse; width: 100%; background: #fff; }
        th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top;
          overflow-wrap: anywhere; }
        th { color: var(--muted); font-weight: 600; }
        #journal td:nth-child(-n+2), #journal td:nth-child(4), #journal th { white-space: nowrap; }
        #journal tbody tr { cursor: pointer; }
        #journal tbody tr:hover { background: #eef2fb; }
        #journal tbody tr.selected { background: #dfe7fb; }
        tr.unmatched td.status { color: var(--miss); font-weight: 600; }
        tr.drift td:last-child { color: var(--miss); }
        .detail { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px;
          overflow: auto; max-height: calc(100vh - 140px); }
        .detail h2 { font-size: 15px; margin: 4px 0 8px; overflow-wrap: anywhere; }
        .detail h3 { font-size: 13px; color: var(--muted); margin: 12px 0 4px; text-transform: uppercase; }
        pre { background: var(--bg); padding: 8px; border-radius: 6px; overflow: auto; max-height: 320px;
          white-space: pre-wrap; overflow-wrap: anywhere; }
        .nearmiss { border: 1px solid var(--line); border-left: 4px solid var(--miss); border-radius: 6px;
          padding: 6px 8px; margin: 6px 0; }
        .nearmiss table td.expected { color: var(--hit); }
        .nearmiss table td.actual { color: var(--miss); background: var(--missbg); }
        textarea { width: 100%; min-height: 220px; font-family: ui-monospace, monospace; font-size: 12px; }
        .pager { margin: 8px 0; display: flex; gap: 8px; align-items: center; }
        .hint, .muted { color: var(--muted); }
        .ok { color: var(--hit); }
        .error { color: var(--miss); }
        """#
}
