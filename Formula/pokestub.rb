# Homebrew formula for pokestub, kept in the repository so the repository itself is a tap (Homebrew reads
# Formula/*.rb of a tapped Git repository; it no longer installs a formula from a bare file path):
#
#   brew tap pokestub/pokestub /path/to/a/clone      # or the clone's Git URL
#   brew install --HEAD pokestub/pokestub/pokestub
#   brew services start pokestub
#
# Written from Homebrew's Formula Cookbook (https://docs.brew.sh/Formula-Cookbook: dependencies, `post_install`,
# the `service do` block, `test do`) and homebrew-core's Swift formulae; checked here with `ruby -c` and
# scripts/check-launchd.sh, and its service block run through Homebrew's own Service#to_plist with stand-ins
# for the rest of Homebrew. It has never been installed on a Mac.
class Pokestub < Formula
  desc "Stub and record/replay HTTP server for PokeAPI, in WireMock's mapping format"
  # The project publishes no release archive or public URL yet, so the formula builds the tap's own
  # checkout: `head` only (`brew install --HEAD`), and the homepage is that checkout's README. `brew style`
  # reports that homepage (its FormulaAudit/Homepage cop wants http or https) until the project has a public
  # https URL: then point homepage and head at it, and add `url` and `sha256` for a release archive.
  homepage "file://#{File.expand_path("../README.md", __dir__)}"
  head "file://#{File.expand_path("..", __dir__)}", using: :git, branch: "main"

  # Swift 6 (swift-tools-version 6.0) comes with Xcode 16, which itself needs macOS 14.5 or later
  # (https://developer.apple.com/xcode/system-requirements/); the daemon's own floor is macOS 13.
  depends_on xcode: ["16.0", :build]
  # pkgconf is Homebrew's pkg-config (`brew install pkg-config` installs it through that alias); brew audit
  # wants the canonical name in a formula.
  depends_on "pkgconf" => :build
  depends_on "libmicrohttpd"
  depends_on macos: :ventura

  uses_from_macos "curl"

  def install
    # --disable-sandbox: SwiftPM's own sandbox-exec cannot run inside the sandbox Homebrew builds in.
    # --product pokestub: the daemon and the targets it links, nothing else (no tests, no client libraries).
    system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "pokestub"
    bin.install ".build/release/pokestub"

    # The shipped stubs (real PokeAPI answers); post_install copies them to var on the first install.
    pkgshare.install "stubs"

    # The shipped config.json with its stubs in var, where they outlive upgrades. Homebrew does not overwrite
    # a config file already in etc: a different new one goes beside it as config.json.default (as Homebrew's
    # maintainers describe etc handling in Homebrew/homebrew-core#96112 and Homebrew/brew#4060).
    inreplace "config.json", '"stubs": "stubs"', "\"stubs\": \"#{var}/pokestub/stubs\""
    (etc/"pokestub").install "config.json"
  end

  def post_install
    (var/"log").mkpath
    stubs = var/"pokestub/stubs"
    # A stub tree that is already there is the user's: it is never replaced.
    return if stubs.exist?

    stubs.dirname.mkpath
    cp_r pkgshare/"stubs", stubs
  end

  def caveats
    <<~EOS
      Config: #{etc}/pokestub/config.json
      Stubs:  #{var}/pokestub/stubs (the daemon reloads them when they change, or on
              launchctl kill HUP gui/$(id -u)/homebrew.mxcl.pokestub)
      Log:    #{var}/log/pokestub.log
    EOS
  end

  # The one definition of pokestub's launchd job: `brew services` writes the plist from it for the prefix in
  # use (/opt/homebrew on Apple silicon, /usr/local on Intel), and launchd/render-plist.py renders the same job
  # for a Mac without Homebrew services. Homebrew's service DSL has no key for resource limits (Formula
  # Cookbook, "Service block methods"; Library/Homebrew/service.rb), so the job starts with launchd's soft
  # open-files limit of 256; `pokestub serve` raises it itself at start (to 10,240, OPEN_MAX; the default
  # limits.maxConnections of 1,024 needs about 1,200), or serves fewer connections with a warning in the log.
  service do
    run [opt_bin/"pokestub", "serve", "--config", etc/"pokestub/config.json"]
    keep_alive true
    working_dir var/"pokestub"
    log_path var/"log/pokestub.log"
    error_log_path var/"log/pokestub.log"
  end

  test do
    (testpath/"stubs/mappings/hello.json").write <<~JSON
      {"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}
    JSON
    port_file = testpath/"pokestub.port"
    # Port 0: the system picks a free port, which the daemon writes to the port file once it serves.
    pid = spawn "#{bin}/pokestub", "serve", "--port", "0", "--port-file", port_file.to_s,
                "--stubs", (testpath/"stubs").to_s, "--watch-stubs", "false"
    deadline = Time.now + 30
    sleep 0.1 while !port_file.exist? && Time.now < deadline
    port = port_file.read.chomp
    assert_match(/\A\d+\z/, port)
    assert_match(/"status" *: *"healthy"/, shell_output("curl -s http://127.0.0.1:#{port}/__admin/health"))
    assert_equal "hi", shell_output("curl -s http://127.0.0.1:#{port}/hello")
  ensure
    if pid
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
