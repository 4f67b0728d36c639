"""Drives the dashboard in headless Chromium (Selenium WebDriver, Debian's chromium-driver) against a live
pokestub daemon: requests appear live, a miss shows its near misses and differences, "stub from this
request" makes the next request match, "Save under mappings/" writes a mapping file that the watcher loads,
the stub list shows each stub's source and file:line, a page from another origin cannot drive the admin API, and an
upstream answer that does not fit PokeAPI's schema shows in the journal, the request's detail and the Contract view
(a second daemon in proxy mode in front of a third, the upstream).
The daemon serves a copy of STUBS (with the watcher on), so saving never writes into the repository.
Saves screenshots of the main views when given a folder.

Usage: check_dashboard.py BINARY STUBS [SCREENSHOT_DIR]
"""

import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

binary, stubs = sys.argv[1], sys.argv[2]
shots = sys.argv[3] if len(sys.argv) > 3 else None
work = tempfile.mkdtemp()
port_file = os.path.join(work, "port")
stub_copy = os.path.join(work, "stubs")
shutil.copytree(stubs, stub_copy)


def fail(message):
    print("check-dashboard: " + message, file=sys.stderr)
    sys.exit(1)


def send(method, url, body=None, headers=None):
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


daemon = subprocess.Popen(
    [binary, "serve", "--port", "0", "--port-file", port_file, "--stubs", stub_copy, "--watch-stubs", "true"],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work,
    env={**os.environ, "POKESTUB_LOG_LEVEL": "warning"})
import atexit
atexit.register(lambda: shutil.rmtree(work, ignore_errors=True))
atexit.register(daemon.kill)
line = daemon.stdout.readline()
if not line.startswith("pokestub listening on "):
    fail("the daemon did not start: " + line)
base = line.split()[3]
port = int(base.rsplit(":", 1)[1])

# The other origin: a page on a name that is not loopback (mapped to 127.0.0.1 for this browser only).
attacker_page = """<!DOCTYPE html><html><body><p id="result">running</p><script>
(async () => {
  const target = "%s";
  const outcome = [];
  try { await fetch(target + "/__admin/mappings", { method: "POST", mode: "no-cors",
    headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ request: { urlPath: "/pwned" }, response: { status: 200, body: "pwned" } }) });
    outcome.push("post sent"); } catch (e) { outcome.push("post blocked"); }
  try { const r = await fetch(target + "/__admin/requests"); await r.text(); outcome.push("journal READ"); }
  catch (e) { outcome.push("journal unreadable"); }
  document.getElementById("result").textContent = outcome.join(", ");
})();
</script></body></html>""" % base


class AttackerPage(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = attacker_page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AttackerPage)
threading.Thread(target=attacker.serve_forever, daemon=True).start()

options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,900",
                 "--host-resolver-rules=MAP attacker.test 127.0.0.1", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver")
driver = webdriver.Chrome(options=options, service=service)
wait = WebDriverWait(driver, 20)


def rows():
    """The journal table's rows as text, read in one script so a re-render cannot interleave."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#journal tbody tr')).map((r) => r.innerText)")


def shot(name):
    if shots:
        os.makedirs(shots, exist_ok=True)
        driver.save_screenshot(os.path.join(shots, name))


try:
    driver.get(base + "/__admin/dashboard")
    wait.until(lambda d: d.find_element(By.ID, "live").text == "live")
    # Requests sent after the page opened appear without a reload (long polling).
    send("GET", base + "/api/v2/pokemon/25/")
    send("GET", base + "/api/v2/pokemon/?offset=0&limit=20")
    send("POST", base + "/api/v2/pokemon/1/", b'{"nickname": "bulby"}', {"Content-Type": "application/json"})
    send("GET", base + "/api/v2/pokemon/9999/")
    try:
        wait.until(lambda d: len(rows()) == 4)
    except Exception:
        fail("the journal shows %r; console: %r" % (rows(), driver.get_log("browser")))
    if "/api/v2/pokemon/9999/" not in rows()[0] or "404" not in rows()[0]:
        fail("newest first with the miss on top, got %r" % rows())
    driver.find_elements(By.CSS_SELECTOR, "#journal tbody tr")[1].click()
    wait.until(lambda d: '"nickname": "bulby"' in d.find_element(By.ID, "detail").text)
    shot("dashboard-journal.png")

    # The filters: unmatched only.
    driver.find_element(By.ID, "filter-matched").send_keys("unmatched")
    wait.until(lambda d: len(rows()) == 2)
    driver.find_element(By.CSS_SELECTOR, "#journal tbody tr").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#near-misses .nearmiss"))
    differences = driver.find_element(By.ID, "near-misses").text
    if "urlPath" not in differences or "/api/v2/pokemon/9999/" not in differences:
        fail("the miss does not show its differences: %r" % differences)
    shot("dashboard-near-miss.png")

    # Stub from this request: edit the proposed mapping, add it, and the next request matches.
    editor = driver.find_element(By.ID, "stub-editor")
    mapping = json.loads(editor.get_attribute("value"))
    if mapping["request"] != {"method": "GET", "urlPath": "/api/v2/pokemon/9999/"}:
        fail("the proposed stub is %r" % mapping["request"])
    mapping["response"]["jsonBody"] = {"id": 9999, "name": "missingno"}
    driver.execute_script("arguments[0].value = arguments[1]", editor, json.dumps(mapping, indent=2))
    driver.find_element(By.ID, "stub-add").click()
    wait.until(lambda d: d.find_element(By.ID, "stub-result").text.startswith("added stub"))
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", editor)
    shot("dashboard-stub-from-request.png")
    status, body = send("GET", base + "/api/v2/pokemon/9999/")
    if status != 200 or json.loads(body) != {"id": 9999, "name": "missingno"}:
        fail("the stub from the request did not answer: %d %r" % (status, body))
    driver.find_element(By.ID, "filter-matched").send_keys("matched")
    wait.until(lambda d: any("9999" in row and "200" in row for row in rows()))

    # Save under mappings/: the same editor, for another path, written to a file the watcher then loads.
    first_reload = json.loads(send("GET", base + "/__admin/health")[1])["lastReload"]["at"]
    mapping["request"]["urlPath"] = "/api/v2/pokemon/8888/"
    mapping["name"] = "missingno, saved"
    mapping["response"]["jsonBody"] = {"id": 8888, "name": "missingno"}
    driver.execute_script("arguments[0].value = arguments[1]", editor, json.dumps(mapping, indent=2))
    driver.find_element(By.ID, "stub-save").click()
    wait.until(lambda d: d.find_element(By.ID, "stub-result").text.startswith("saved stub"))
    saved = re.fullmatch(r"saved stub (\S+) as (mappings/\S+\.json)", driver.find_element(By.ID, "stub-result").text)
    if not saved:
        fail("the save did not name its file: %r" % driver.find_element(By.ID, "stub-result").text)
    saved_id, saved_file = saved.group(1), saved.group(2)
    if saved_file != "mappings/missingno-saved-%s.json" % saved_id:
        fail("the saved file is %r" % saved_file)
    with open(os.path.join(stub_copy, saved_file)) as handle:
        if json.load(handle).get("persistent") is not True:
            fail("the saved file is not the persistent mapping")
    status, body = send("GET", base + "/api/v2/pokemon/8888/")
    if status != 200 or json.loads(body) != {"id": 8888, "name": "missingno"}:
        fail("the saved stub did not answer: %d %r" % (status, body))

    def saved_loaded(_):
        health = json.loads(send("GET", base + "/__admin/health")[1])
        listed = json.loads(send("GET", base + "/__admin/dashboard/stubs")[1])["stubs"]
        copies = [stub for stub in listed if stub["id"] == saved_id]
        return (health["lastReload"]["at"] != first_reload and len(copies) == 1
                and copies[0]["source"] == "disk" and copies[0]["file"] == saved_file)
    try:
        wait.until(saved_loaded)
    except Exception:
        fail("the watcher did not load %s as the one copy of stub %s" % (saved_file, saved_id))

    # The stubs view, searchable, with file paths and hit counts.
    driver.find_element(By.ID, "tab-stubs").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#stubs tbody tr"))
    driver.find_element(By.ID, "stub-search").send_keys("pokemon/25")
    wait.until(lambda d: all("pokemon/25" in r.text for r in d.find_elements(By.CSS_SELECTOR, "#stubs tbody tr")))
    stub_rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#stubs tbody tr")]
    if not any(" disk " in row and re.search(r"mappings/pokemon/25\.json:\d+ ", row) and row.endswith(" 1")
               for row in stub_rows):
        fail("no stub row with its source, file:line and one hit: %r" % stub_rows)
    shot("dashboard-stubs.png")
    # The source column tells a stub added at run time from one saved to disk.
    def rows_for(words):
        search = driver.find_element(By.ID, "stub-search")
        search.clear()
        search.send_keys(words)
        wait.until(lambda d: all(w in r.text.lower() for r in d.find_elements(By.CSS_SELECTOR, "#stubs tbody tr")
                                 for w in words.split()))
        return [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#stubs tbody tr")]
    added = rows_for("admin")
    if len(added) != 1 or "/api/v2/pokemon/9999/" not in added[0]:
        fail("the stub added at run time is not the one admin API row: %r" % added)
    on_disk = rows_for("missingno")
    if len(on_disk) != 1 or " disk " not in on_disk[0] or saved_file + ":1" not in on_disk[0]:
        fail("the saved stub's row is %r" % on_disk)

    # A page of another origin: its POST is refused (no stub added), the journal cannot be read from it.
    before = json.loads(send("GET", base + "/__admin/mappings?limit=0")[1])["meta"]["total"]
    driver.get("http://attacker.test:%d/" % attacker.server_address[1])
    wait.until(lambda d: d.find_element(By.ID, "result").text != "running")
    outcome = driver.find_element(By.ID, "result").text
    after = json.loads(send("GET", base + "/__admin/mappings?limit=0")[1])["meta"]["total"]
    if after != before or send("GET", base + "/pwned")[0] != 404:
        fail("a page of another origin added a stub")
    if "journal READ" in outcome:
        fail("a page of another origin read the journal")
    # DNS rebinding: the dashboard under a foreign name is refused by the Host check.
    driver.get("http://attacker.test:%d/__admin/dashboard" % port)
    if "Admin request for a foreign host refused" not in driver.page_source:
        fail("the dashboard answered under a foreign Host")

    # Drift: a daemon in proxy mode in front of an upstream (another pokestub) whose pokemon/25 has a string
    # base_experience. The journal row, the request's detail and the Contract view all show the violation.
    def start(arguments, name):
        folder = os.path.join(work, name)
        os.makedirs(os.path.join(folder, "mappings"), exist_ok=True)
        process = subprocess.Popen([binary, "serve", "--port", "0", "--stubs", folder] + arguments,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=work,
                                   env={**os.environ, "POKESTUB_LOG_LEVEL": "error"})
        atexit.register(process.kill)
        first = process.stdout.readline()
        if not first.startswith("pokestub listening on "):
            fail("the %s daemon did not start: %r" % (name, first))
        return first.split()[3]
    upstream = start([], "upstream")
    with open(os.path.join(stubs, "__files", "pokemon", "25.json")) as handle:
        pikachu = json.load(handle)
    pikachu["base_experience"] = str(pikachu["base_experience"])
    drifting = {"request": {"method": "GET", "urlPath": "/api/v2/pokemon/25/"},
                "response": {"status": 200, "jsonBody": pikachu}}
    if send("POST", upstream + "/__admin/mappings", json.dumps(drifting).encode(),
            {"Content-Type": "application/json"})[0] != 201:
        fail("the upstream did not take its stub")
    proxy = start(["--mode", "proxy", "--upstream", upstream], "proxy")
    driver.get(proxy + "/__admin/dashboard")
    wait.until(lambda d: d.find_element(By.ID, "live").text == "live")
    if send("GET", proxy + "/api/v2/pokemon/25/")[0] != 200:
        fail("the proxied request was not answered 200")
    try:
        wait.until(lambda d: any("schema violation" in row for row in rows()))
    except Exception:
        fail("the proxied answer's row does not flag its schema violations: %r" % rows())
    driver.find_element(By.CSS_SELECTOR, "#journal tbody tr.drift").click()
    wait.until(lambda d: d.find_elements(By.ID, "schema-violations"))
    detail = driver.find_element(By.ID, "schema-violations").text
    heading = driver.find_element(By.ID, "detail").text.lower()  # headings are shown in capitals
    if "$.base_experience" not in detail or "schema violations (pokemon/$id)" not in heading:
        fail("the request's detail does not list its violations: %r" % heading)
    driver.find_element(By.ID, "tab-contract").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#contract tbody tr.drift"))
    contract = driver.find_element(By.ID, "contract").text
    if "pokemon/$id" not in contract or "$.base_experience" not in contract:
        fail("the Contract view does not show the endpoint's violations: %r" % contract)
    shot("dashboard-contract.png")
    print("check-dashboard: requests appeared live, the miss showed its differences, the stub from it matched, "
          "another origin could not drive the admin API (%s), and a drifting upstream answer showed in the "
          "journal, its detail and the Contract view" % outcome)
finally:
    driver.quit()
    attacker.shutdown()
    daemon.terminate()
    daemon.wait(timeout=15)
