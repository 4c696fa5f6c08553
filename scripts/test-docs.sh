#!/usr/bin/env bash
# Runs the commands of README.md and docs/*.md: every line of every ```sh block is found, and each
# must be one of these, or the test fails (so a new command in the docs needs a way to be run):
#
#   - a SYNOPSIS (a line with placeholders: [--flag], CONFIG, POLICY, FILE, ...): the command and
#     subcommand must exist, and each --flag it names must be in that command's --help;
#   - a COMMAND: run with bash, in a fresh folder holding the fixtures the docs assume (the config
#     Kokua ships as config.toml, its policy as policy.json, the default manifest as install.json
#     and as kokua.manifest.json, the policy tests of docs/policy-tests.md), with kokua-lint, kokua-compile and kokua-run built from this
#     working tree first on PATH. The runnable lines of one block run together, in order, as one
#     script, which must exit as the table EXPECT below says (0 unless listed); `go run` lines run
#     in the repository. A block listed in FIXES (kokua-lint --fix and --diff) runs on the shipped
#     config with tool-access.md's misspelled entry instead, and must leave the fixed config in
#     the files FIXES names. `kokua-run serve` lines start the server in the background; the `curl`
#     lines of the same page then run against it and must get JSON back;
#   - an INSTALL block (git clone ... && go install ./cmd/...): run as written, the clone pointed
#     at a local repository holding this working tree;
#   - a Go test, benchmark or fuzz line (go test ... -bench X / -fuzz X): the benchmarks or the
#     fuzz target it names must exist (go test -list); they are not run for their length;
#   - a line another script runs as written, named in DELEGATED with that script (taplo, the
#     git-based diff, .ci/run itself, the long-running bench, load and mutation scripts, which are only
#     checked with bash -n here, and the editor extension's install).
#
# Run from anywhere: bash scripts/test-docs.sh. Nothing in this repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v go >/dev/null || { echo "FAIL: go is not on PATH" >&2; exit 1; }
command -v curl >/dev/null || { apt-get update -qq && apt-get install -y -qq curl >/dev/null; }
# shellcheck source=scripts/lib.sh
source "$repo_root/scripts/lib.sh"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-docs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
share_go_caches

echo "==> building kokua-lint, kokua-compile and kokua-run from the working tree"
go -C "$repo_root" build -buildvcs=false -o "$tmp/bin/" ./cmd/kokua-lint ./cmd/kokua-compile ./cmd/kokua-run

# The repository an install block clones: this working tree, committed.
export GIT_CONFIG_GLOBAL="$tmp/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "kokua-policy test"
git config --global user.email "test@kokua-policy.invalid"
git config --global init.defaultBranch main
git config --global advice.detachedHead false
git init -q "$tmp/kokua-policy"
(cd "$repo_root" && git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
    [[ -f "$f" ]] && printf '%s\0' "$f"
done | tar --null -T - -cf -) | tar -C "$tmp/kokua-policy" -xf -
git -C "$tmp/kokua-policy" add -A
git -C "$tmp/kokua-policy" commit -q -m "working tree"

python3 - "$repo_root" "$tmp" <<'EOF'
import glob, json, os, re, shlex, shutil, signal, subprocess, sys, time, urllib.request

REPO, TMP = sys.argv[1:]
BIN = os.path.join(TMP, "bin")
GOMODCACHE = subprocess.run(["go", "env", "GOMODCACHE"], stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
START = time.time()
class Fail(Exception): pass
def check(ok, msg):
    if not ok: raise Fail(msg)
def show(text):
    for line in text.rstrip("\n").split("\n"):
        print("    | " + line)

# Exit codes other than 0, by page and the block's first runnable line.
EXPECT = {
    ("docs/manifest.md", "kokua-lint manifest > kokua.manifest.json"): 1,   # its example has one mistake
    ("docs/policy-tests.md", "cd team"): 1,   # the team's config fails three of its claims
}
# Blocks that fix a config, by page and first runnable line: they run on the shipped config with
# mcp.add_mcp_server written bare (add_mcp_server) as config.toml, and afterwards each file
# listed must hold the shipped config, fixed.
FIXES = {
    ("README.md", "kokua-lint --diff config.toml"): ["fixed.toml", "config.toml"],
}
# Lines other scripts run as written, or that cannot run here, and why.
DELEGATED = [
    (r"^taplo check ", "scripts/test-taplo.sh runs it as written, with @taplo/cli from npm"),
    (r"^kokua-compile diff --base ", "needs a git history; scripts/test-action-diff.sh runs --base on one"),
    (r"^go run \./tools/explorerbench", "opens a 1,000-agent page in Chromium several times, minutes on a shared machine; docs/explorer.md's table records a run"),
    (r"^kokua-compile report --base main ", "needs a git history; cmd/kokua-compile's TestReportBaseRef runs report --base REF in one"),
    (r"^bash \.ci/run$", "this is .ci/run"),
    (r"^go test \./\.\.\.$", ".ci/run runs it, with -race"),
    (r"^go test \./lint -run TestGolden -update$", "rewrites the goldens; .ci/run runs the golden tests"),
    (r"^go generate \./internal/config$", "rewrites the committed schemas; internal/config/schemagen's TestGenerate runs the step and TestJSONSchemaUpToDate compares its output"),
    (r"^([A-Z_]+=\d+ )*bash scripts/bench\.sh$", "minutes long; checked with bash -n"),
    (r"^([A-Z_]+=\d+ )*(bash )?scripts/loadtest\.sh( |$)", "minutes long; checked with bash -n"),
    (r"^bash scripts/mutation\.sh( |$)", "mutation testing takes about an hour; checked with bash -n"),
    (r"^cd editors/vscode$|^npm install$|^ln -s .*\.vscode/extensions/", "installs the VS Code extension on this machine (docs/editor.md, the LSP part)"),
    (r"^go build -o /tmp/kokua-[a-z]+ \./cmd/kokua-[a-z]+( && go build -o /tmp/kokua-[a-z]+ \./cmd/kokua-[a-z]+)*$|^hyperfine ", "the whole-process timing of docs/benchmarks.md; scripts/bench.sh runs it"),
    (r"^/usr/bin/time -v /tmp/kokua-run decide /tmp/large\.json ", "the whole-process timing of a 62 MB policy, which the LoadScale benchmark line above it writes; minutes of generation"),
]
# Pages a Go test runs whole, every block with its output byte for byte, and why here they are not.
RUN_ELSEWHERE = {
    "docs/getting-started.md": ("internal/gettingstarted/gettingstarted_test.go", "func TestGettingStarted(",
        "TestGettingStarted runs the page in an empty folder with the commands built from this checkout (its go install lines name a release no module proxy holds yet)"),
}
# Examples of what commands print (a ```text block whose first line is a "$ " command), each run
# whole by a Go test that compares every line, standard output and standard error as a terminal
# shows them (issue 38: a page shows the notes a command prints on stderr too), by page and first
# line: the test's file and declaration. getting-started.md's console blocks are RUN_ELSEWHERE's.
TRANSCRIPTS = {
    ("README.md", "$ kokua-lint config.toml"): ("cmd/kokua-lint/doctranscript_test.go", "func TestReadmeLintExample("),
    ("README.md", "$ kokua-lint --diff config.toml"): ("cmd/kokua-lint/readme_test.go", "func TestReadmeFixExample("),
    ("docs/output-formats.md", "$ kokua-lint --manifest manifest.json config.toml"): ("cmd/kokua-lint/doctranscript_test.go", "func TestOutputFormatsDoc("),
    ("docs/output-formats.md", "$ kokua-lint --format github --manifest manifest.json config.toml"): ("cmd/kokua-lint/doctranscript_test.go", "func TestOutputFormatsDoc("),
    ("docs/migrate.md", "$ kokua-lint migrate --write config.toml"): ("cmd/kokua-lint/migrate_test.go", "func TestMigrateWriteKeepsEveryOriginal("),
    ("docs/risks.md", "$ kokua-compile risks --fail-on critical config.toml > /dev/null"): ("cmd/kokua-compile/risks_failon_test.go", "func TestRisksFailOnDoc("),
}
SCRIPT_SYNTAX = {"scripts/bench.sh", "scripts/loadtest.sh", "scripts/mutation.sh"}
PLACEHOLDER = re.compile(r"\[--|\[-o|\.\.\.|\b(CONFIG|POLICY|FILE|NAME|AGENT|TOOL|OLD|NEW|REF|TOOLSET)\b")

def strip_comment(line):
    """The line without a trailing # comment outside quotes."""
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q: q = None
        elif c in "'\"": q = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()

def blocks(path):
    """The sh blocks of a page: lists of logical lines (backslash continuations joined)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            j = lines.index("```", i + 1)
            if m.group(1) in ("sh", "bash", "shell", "console"):
                logical, cur = [], ""
                for l in lines[i + 1:j]:
                    if l.endswith("\\"):
                        cur += l[:-1] + " "
                        continue
                    cur += l
                    try:
                        shlex.split(cur, comments=True)
                    except ValueError:   # a quote goes on to the next line
                        cur += "\n"
                        continue
                    if strip_comment(cur).strip(): logical.append(strip_comment(cur).strip())
                    cur = ""
                out.append((i + 1, logical))
            i = j
        i += 1
    return out

def fixtures(ws):
    os.makedirs(ws)
    shutil.copy(os.path.join(REPO, "examples", "shipped.config.toml"), os.path.join(ws, "config.toml"))
    # The policy tests of docs/policy-tests.md: the shipped config's beside it, and the team's
    # config with its tests in a folder team.
    shutil.copy(os.path.join(REPO, "examples", "kokua.test.toml"), os.path.join(ws, "kokua.test.toml"))
    os.makedirs(os.path.join(ws, "team"))
    for name in ("config.toml", "kokua.test.toml"):
        shutil.copy(os.path.join(REPO, "testdata", "policytest", "team", name), os.path.join(ws, "team", name))
    env = env_with_bin()
    for name in ("install.json", "kokua.manifest.json"):
        subprocess.run(["kokua-lint", "manifest"], stdout=open(os.path.join(ws, name), "w"), check=True, env=env)
    subprocess.run(["kokua-compile", "-o", "policy.json", "config.toml"], cwd=ws, check=True, env=env)

def env_with_bin(extra=None):
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"])
    env.update(extra or {})
    return env

def bash(script, cwd, env=None):
    p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env_with_bin(env),
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout

def doc_block(page, name):
    lines = open(os.path.join(REPO, page), encoding="utf-8").read().split("\n")
    i = lines.index("<!-- test: %s -->" % name) + 1
    while not lines[i].startswith("```"): i += 1
    return "\n".join(lines[i + 1:lines.index("```", i + 1)]) + "\n"

def synopsis(page, line):
    words = shlex.split(line.replace("|", " "), posix=True) if "'" not in line else line.split()
    cmd = words[0]
    check(cmd in ("kokua-lint", "kokua-compile", "kokua-run"), "%s: a synopsis of %r, which is not one of the commands" % (page, cmd))
    args = [cmd]
    if len(words) > 1 and re.fullmatch(r"[a-z]+", words[1]):
        args.append(words[1])
    code, out = bash(" ".join(args) + " --help", REPO)
    check(code == 0, "%s: %s --help exits %d:\n%s" % (page, " ".join(args), code, out))
    for flag in re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-o)\b", line):
        check(re.search(r"(?<![\w-])%s\b" % re.escape(flag), out), "%s: %r names %s, which %s --help does not list" % (page, line, flag, " ".join(args)))
    print("  - synopsis: %s" % line)

def go_list(page, line):
    m = re.search(r"go test (\S+)\s.*-(bench|fuzz) (\S+)", line)
    check(m, "%s: cannot read %r" % (page, line))
    pkg, kind, pattern = m.groups()
    # -list knows top-level names: a quoted pattern, or one naming a
    # sub-benchmark (LoadScale/100x), is checked by its top-level part.
    # Each alternative of Parse|GoTOML must find one of its own.
    for pattern in pattern.strip("'\"").split("/")[0].split("|"):
        pattern = "Benchmark.*" if pattern == "." else pattern
        if kind == "bench" and not pattern.startswith("Benchmark"): pattern = "Benchmark" + pattern
        code, out = bash("go test %s -run '^$' -list %s" % (shlex.quote(pkg), shlex.quote(pattern)), REPO)
        names = [l for l in out.split("\n") if l.startswith(("Benchmark", "Fuzz"))]
        check(code == 0 and names, "%s: %r: go test -list finds no %s matching %s in %s:\n%s" % (page, line, kind, pattern, pkg, out))
        print("  - %s: %s exists (%s)" % (line, kind, ", ".join(names[:4])))

def wait_http(url, proc):
    for _ in range(200):
        if proc.poll() is not None: return False
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return True
        except Exception:
            time.sleep(0.05)
    return False

def shown_error(page, curl):
    """The error answer a page shows for curl: the ```json block right after the block that holds
    it, when that block is an error object; None when the page shows no error for it."""
    lines = open(os.path.join(REPO, page), encoding="utf-8").read().split("\n")
    at = next((i for i, l in enumerate(lines) if l.strip() == curl), None)
    if at is None:
        return None
    end = lines.index("```", at)
    rest = [l for l in lines[end + 1:] if l.strip()]
    if len(rest) < 3 or rest[0] != "```json":
        return None
    body = "\n".join(rest[1:rest.index("```", 1)])
    return body if '"error"' in body else None

def serve(page, line, ws, curls):
    m = re.search(r"--addr (\S+)", line)
    addr = m.group(1) if m else "127.0.0.1:8181"
    log = open(os.path.join(TMP, "serve.log"), "w")
    proc = subprocess.Popen(["bash", "-c", "exec " + line], cwd=ws, env=env_with_bin(), stdout=log, stderr=subprocess.STDOUT)
    try:
        check(wait_http("http://%s/healthz" % addr, proc), "%s: %r did not start on %s:\n%s" % (page, line, addr, open(log.name).read()))
        print("  - %s: serving on %s" % (line, addr))
        if addr == "127.0.0.1:8181":
            for c in curls:
                code, out = bash(c, ws)
                check(code == 0, "%s: %r exits %d: %s" % (page, c, code, out))
                body = json.loads(out)
                shown = shown_error(page, c)
                if shown is None:
                    check("error" not in body, "%s: %r answers an error: %s" % (page, c, out))
                else:
                    check(body == json.loads(shown), "%s: %r answers %s, not the error the page shows: %s" % (page, c, out.strip(), shown))
                print("  - %s -> %s" % (c.replace("\n", " "), out.strip()[:100]))
            curls.clear()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    check(proc.returncode == 0, "%s: %r exited %d after SIGTERM" % (page, line, proc.returncode))

def transcripts(path):
    """The first lines of a page's ```text blocks that open with a "$ " command."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            j = lines.index("```", i + 1)
            if m.group(1) == "text" and j > i + 1 and lines[i + 1].startswith("$ "):
                out.append(lines[i + 1])
            i = j
        i += 1
    return out

used = set()   # the FIXES entries a block matched
seen_transcripts = set()
pages = ["README.md"] + sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md")))
counts = {}
try:
    for page in pages:
        if page in RUN_ELSEWHERE:
            test_file, decl, why = RUN_ELSEWHERE[page]
            check(decl in open(os.path.join(REPO, test_file), encoding="utf-8").read(), "%s: %s no longer holds %r" % (page, test_file, decl))
            print("==> %s: not run here: %s" % (page, why))
            counts["page run by a Go test"] = counts.get("page run by a Go test", 0) + 1
            continue
        for first in transcripts(os.path.join(REPO, page)):
            check((page, first) in TRANSCRIPTS, "%s: the example opening with %r is run by no test that compares its stdout and stderr: add one, and list it in TRANSCRIPTS" % (page, first))
            test_file, decl = TRANSCRIPTS[(page, first)]
            check(decl in open(os.path.join(REPO, test_file), encoding="utf-8").read(), "%s: %s no longer holds %r" % (page, test_file, decl))
            seen_transcripts.add((page, first))
            print("  - %s: %s is run whole by %s" % (page, first, decl.rstrip("(")))
            counts["transcript run by a Go test"] = counts.get("transcript run by a Go test", 0) + 1
        curls = [l for _, b in blocks(os.path.join(REPO, page)) for l in b if l.startswith("curl ")]
        for n, (lineno, block) in enumerate(blocks(os.path.join(REPO, page))):
            run = []
            for line in block:
                why = next((w for pat, w in DELEGATED if re.search(pat, line)), None)
                if why:
                    for s in SCRIPT_SYNTAX:
                        if s in line:
                            code, out = bash("bash -n " + s, REPO)
                            check(code == 0, "%s: bash -n %s: %s" % (page, s, out))
                    print("  - %s: not run here: %s" % (line, why))
                    counts["delegated"] = counts.get("delegated", 0) + 1
                elif line.startswith("curl "):
                    continue   # run against the page's server
                elif re.match(r"^([A-Z_]+=\S+ )*go test .*-(bench|fuzz) ", line):
                    go_list(page, line); counts["go test -list"] = counts.get("go test -list", 0) + 1
                elif PLACEHOLDER.search(line) and not line.startswith("git clone"):
                    synopsis(page, line); counts["synopsis"] = counts.get("synopsis", 0) + 1
                else:
                    run.append(line)
            if not run:
                continue
            print("==> %s:%d: %s" % (page, lineno, " && ".join(run)))
            ws = os.path.join(TMP, "ws", "%s-%d" % (page.replace("/", "_"), n))
            fixtures(ws)
            serves = [l for l in run if l.startswith("kokua-run serve ")]
            rest = [l for l in run if not l.startswith("kokua-run serve ")]
            counts["command"] = counts.get("command", 0) + len(run)
            if rest and rest[0].startswith("git clone "):
                script = "\n".join(rest).replace("https://github.com/kokua-policy/kokua-policy.git", "file://" + os.path.join(TMP, "kokua-policy"))
                # go install puts the commands in $(go env GOPATH)/bin, here a
                # fresh folder that is not on PATH, as on a new machine: the
                # block itself must put it there (issue 21). The module cache
                # stays where it is.
                gopath = os.path.join(ws, "gopath")
                env = {"GOPATH": gopath, "GOBIN": "", "GOMODCACHE": GOMODCACHE,
                       "PATH": os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(d, "kokua-lint")))}
                code, out = bash(script, ws, env)
                show(out)
                check(code == 0, "%s:%d: the install block exits %d" % (page, lineno, code))
                check(re.search(r"^kokua-lint version \S+$", out, re.M), "%s: no version printed" % page)
                check(sorted(os.listdir(os.path.join(gopath, "bin"))) == ["kokua-compile", "kokua-lint", "kokua-run"], "the install block did not install the three commands")
                continue
            if page == "docs/manifest.md" and rest and rest[0].startswith("kokua-lint manifest"):
                # The page's own config, and the user's edit: its entries added to "toolsets".
                open(os.path.join(ws, "config.toml"), "w").write(doc_block(page, "manifest-config"))
                code, out = bash(rest[0], ws)
                check(code == 0, "%s: %r exits %d: %s" % (page, rest[0], code, out))
                m = json.load(open(os.path.join(ws, "kokua.manifest.json")))
                m["toolsets"] += json.loads(doc_block(page, "manifest-additions"))
                json.dump(m, open(os.path.join(ws, "kokua.manifest.json"), "w"), indent=2)
                code, out = bash("\n".join(rest[1:]), ws)
                show(out)
                check(code == EXPECT[(page, rest[0])], "%s: exits %d" % (page, code))
                check(out == doc_block(page, "manifest-output"), "%s: the output is not the page's:\n%s" % (page, out))
                continue
            cwd = REPO if rest and rest[0].startswith("go run ") else ws
            fixed = FIXES.get((page, rest[0])) if rest else None
            if fixed is not None:
                shipped = open(os.path.join(REPO, "examples", "shipped.config.toml"), encoding="utf-8").read()
                broken = shipped.replace('"mcp.add_mcp_server", "config', '"add_mcp_server", "config', 1)
                check(broken != shipped, "examples/shipped.config.toml no longer holds mcp.add_mcp_server")
                open(os.path.join(ws, "config.toml"), "w", encoding="utf-8").write(broken)
            if rest:
                code, out = bash("\n".join(rest), cwd)
                if out: show(out[-2000:])
                want = EXPECT.get((page, rest[0]), 0)
                check(code == want, "%s:%d: exits %d, want %d" % (page, lineno, code, want))
            for f in fixed or []:
                got = open(os.path.join(ws, f), encoding="utf-8").read()
                check(got == shipped, "%s:%d: after the block, %s is not the fixed config:\n%s" % (page, lineno, f, got))
                print("  - %s holds the fixed config" % f)
            if fixed is not None:
                check("would fix entry-shape" in out and "fixed entry-shape" in out,
                      "%s:%d: the block did not say which fixes it made:\n%s" % (page, lineno, out))
                counts["fixed"] = counts.get("fixed", 0) + 1
                used.add((page, rest[0]))
            for s in serves:
                serve(page, s, ws, curls)
        check(not curls, "%s: curl lines with no kokua-run serve on the page to answer them: %r" % (page, curls))
    check(used == set(FIXES), "FIXES entries that match no block: %r" % sorted(set(FIXES) - used))
    check(seen_transcripts == set(TRANSCRIPTS), "TRANSCRIPTS entries that match no example: %r" % sorted(set(TRANSCRIPTS) - seen_transcripts))
    print("==> PASS: the commands of README.md and docs/ (%s; %ds)" % (", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())), time.time() - START))
except Fail as e:
    print("FAIL: %s" % e, file=sys.stderr)
    sys.exit(1)
EOF
