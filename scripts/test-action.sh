#!/usr/bin/env bash
# Tests action.yml and the GitHub Actions workflows of docs/ci.md without GitHub: a small runner in
# Python reads the YAML and runs each step as the runner would. `run:` scripts run with bash as
# written (`bash --noprofile --norc -eo pipefail` for `shell: bash`, `bash -e` for a workflow step
# without one), with the step's `env:`, the `${{ }}` expressions the files use evaluated (inputs,
# github.action_path, steps.<id>.outputs, format(), ==, !=, &&, ||), `if:` and
# `continue-on-error:` honoured, GITHUB_OUTPUT read back into step outputs and the action's
# `outputs:`, and GITHUB_PATH, GITHUB_STEP_SUMMARY, RUNNER_TEMP and GITHUB_WORKSPACE as the runner
# provides them; github.event is the event's payload (a property it lacks is '', as on GitHub).
#
# THE INSTALL STEPS RUN AS WRITTEN, on both paths. At a ref that is not a released tag (a tag with
# no release, a branch, `uses: ./`) the action builds kokua-lint from its own checkout
# ($GITHUB_ACTION_PATH), which here is a copy of this working tree (tracked and untracked files,
# minus .gitignore'd ones), with the ref stamped as its version. At a released tag it downloads
# the release's binaries with curl and checks them against its SHA256SUMS: the release is a fake
# one, a folder of scripts/build-release.sh's output for this machine's platform served over HTTP
# on 127.0.0.1 at GITHUB_SERVER_URL's /OWNER/REPO/releases/download/TAG/, as github.com serves a
# release's files; those cases run with no Go on PATH, and a tampered binary must be refused. The
# plain workflow checks the repository out with actions/checkout (simulated by the same copy) and
# runs its `go install` line as written.
#
# THE DIFF MODE RUNS ON A REAL GIT HISTORY: for `mode: diff` and `both` the workspace is a shallow
# clone (--depth 1, as actions/checkout makes one) of a pull-request branch whose base commit it
# lacks, from an "origin" repository made here with a base commit and a head commit that widens
# (or narrows) an agent's power; github.event.pull_request.base.sha is that base commit, so the
# action's diff step fetches it from origin and runs scripts/action-diff.sh on it. The cases check
# the markdown in the job summary, the exit status (a widening fails, allow-widen passes), the
# widened output and that only the commands the mode needs were built. The policy tests run on
# such a history too: a pull request that deletes the kokua.test.toml its base has fails.
#
# SIMULATED (`uses:` steps cannot run here): actions/checkout (the workspace is ready),
# actions/setup-go (Go is on PATH; its inputs are checked: the go.mod it reads, its own cache off),
# actions/cache (its key must be the one the action computed from its go.sum, and its paths Go's
# module and build caches; nothing is restored or saved), github/codeql-action/upload-sarif (its
# sarif_file must be SARIF 2.1.0 and category is recorded; one case makes it fail, as a read-only
# token does on a fork's pull request), actions/upload-artifact (its path must be a folder of
# policy explorer pages; its artifact-url output is a made-up URL), and the runner's github.action_ref and
# github.action_repository (the ref after `@`, kokua-policy/kokua-policy) and RUNNER_OS and
# RUNNER_ARCH (this machine's). The release itself, its URL layout and GitHub's redirect to its
# storage are not github.com's own.
#
# Needs Go, git and python3 with PyYAML (python3-yaml is installed with apt-get if missing).
# Run from anywhere: bash scripts/test-action.sh. Nothing in this repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v go >/dev/null || { echo "FAIL: go is not on PATH" >&2; exit 1; }
# shellcheck source=scripts/lib.sh
source "$repo_root/scripts/lib.sh"
python_with_yaml

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-action.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
share_go_caches
unset GITHUB_PATH GITHUB_ENV GITHUB_OUTPUT GITHUB_STEP_SUMMARY

# The action's checkout: the working tree's files, as the runner would have them at the ref.
mkdir -p "$tmp/action"
(cd "$repo_root" && git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
    [[ -f "$f" ]] && printf '%s\0' "$f"
done | tar --null -T - -cf -) | tar -C "$tmp/action" -xf -

"$py" - "$repo_root" "$tmp" <<'EOF'
import functools, hashlib, http.server, json, os, platform, re, shutil, subprocess, sys, threading, time
import yaml

REPO, TMP = sys.argv[1:]
ACTION_PATH = os.path.join(TMP, "action")
START = time.time()

def step(msg): print("==> " + msg, flush=True)
def show(text):
    for line in text.rstrip("\n").split("\n"):
        print("    | " + line)
    sys.stdout.flush()
class Fail(Exception): pass
def check(ok, msg):
    if not ok: raise Fail(msg)

def doc_block(name):
    """The fenced block after `<!-- test: NAME -->` in docs/ci.md."""
    lines = open(os.path.join(REPO, "docs/ci.md"), encoding="utf-8").read().split("\n")
    marker = "<!-- test: %s -->" % name
    check(lines.count(marker) == 1, "docs/ci.md: want exactly one line %r" % marker)
    i = lines.index(marker) + 1
    while i < len(lines) and not lines[i].strip(): i += 1
    check(i < len(lines) and lines[i].startswith("```"), "docs/ci.md: no block after %r" % marker)
    return "\n".join(lines[i + 1:lines.index("```", i + 1)]) + "\n"

# The fake releases: RELEASES/<owner>/<repo>/releases/download/<tag>/<file>, served over HTTP.
RELEASES = os.path.join(TMP, "releases")
os.makedirs(RELEASES)
REQUESTS = []
class ReleaseHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        REQUESTS.append(self.path)
SERVER = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(ReleaseHandler, directory=RELEASES))
threading.Thread(target=SERVER.serve_forever, daemon=True).start()
SERVER_URL = "http://127.0.0.1:%d" % SERVER.server_address[1]
RUNNER_OS = {"Linux": "Linux", "Darwin": "macOS", "Windows": "Windows"}[platform.system()]
RUNNER_ARCH = {"x86_64": "X64", "amd64": "X64", "aarch64": "ARM64", "arm64": "ARM64"}[platform.machine().lower()]

GO_VERSION = re.search(r"^go (\d+\.\d+)", open(os.path.join(REPO, "go.mod")).read(), re.M).group(1)
ACTION = yaml.safe_load(open(os.path.join(REPO, "action.yml"), encoding="utf-8"))
check(ACTION["runs"]["using"] == "composite", "action.yml: not a composite action")

# ---- expressions ---------------------------------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||\(|\)|,|!)|(?P<name>[A-Za-z_][A-Za-z0-9_.*-]*))")

class Expr:
    """The expressions of the files under test: literals, contexts, format(), always(), ==, !=,
    !, && and ||, with the runner's truthiness ('' is false) and && || returning operands."""
    def __init__(self, text, ctx):
        self.toks, self.i, self.ctx = [], 0, ctx
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            check(m and m.end() > pos, "cannot read expression %r at %d" % (text, pos))
            self.toks.append((m.lastgroup, m.group(m.lastgroup)))
            pos = m.end()
    def peek(self): return self.toks[self.i] if self.i < len(self.toks) else (None, None)
    def take(self): t = self.peek(); self.i += 1; return t
    def value(self):
        v = self.or_()
        check(self.i == len(self.toks), "trailing tokens in expression")
        return v
    def or_(self):
        v = self.and_()
        while self.peek() == ("op", "||"):
            self.take(); r = self.and_(); v = v if truthy(v) else r
        return v
    def and_(self):
        v = self.cmp()
        while self.peek() == ("op", "&&"):
            self.take(); r = self.cmp(); v = r if truthy(v) else v
        return v
    def cmp(self):
        v = self.unary()
        while self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]; r = self.unary()
            v = (str(v) == str(r)) == (op == "==")
        return v
    def unary(self):
        if self.peek() == ("op", "!"):
            self.take(); return not truthy(self.unary())
        return self.atom()
    def atom(self):
        kind, tok = self.take()
        if kind == "str": return tok[1:-1].replace("''", "'")
        if tok == "(":
            v = self.or_(); check(self.take() == ("op", ")"), "missing )"); return v
        check(kind == "name", "unexpected %r" % tok)
        if self.peek() == ("op", "("):
            self.take(); args = []
            while self.peek() != ("op", ")"):
                args.append(self.or_())
                if self.peek() == ("op", ","): self.take()
            self.take()
            if tok == "toJSON": return json.dumps(args[0])
            if tok == "format": return re.sub(r"\{(\d+)\}", lambda m: str(args[1 + int(m.group(1))]), args[0])
            if tok == "contains":   # case-insensitive, on an array (an object filter) or a string
                hay, needle = args
                if isinstance(hay, list): return any(text(x).lower() == text(needle).lower() for x in hay)
                return text(needle).lower() in text(hay).lower()
            if tok in ("always", "success"): return tok == "always" or self.ctx["job"].status == 0
            raise Fail("unsupported function %s()" % tok)
        parts = tok.split(".")
        if tok in ("true", "false"): return tok == "true"
        cur = self.ctx
        for i, p in enumerate(parts):
            if p == "*":   # an object filter: the rest of the path on each element, missing ones left out
                return [v for v in (walk(x, parts[i + 1:]) for x in (cur if isinstance(cur, list) else [])) if v is not None]
            if parts[0] == "steps" and isinstance(cur, dict) and p not in cur:
                return ""   # a step that did not run, or an output it did not write
            if parts[:2] == ["github", "event"] and (not isinstance(cur, dict) or p not in cur):
                return ""   # a property the event's payload lacks is null
            check(isinstance(cur, dict) and p in cur, "unknown context %r" % tok)
            cur = cur[p]
        return cur

def walk(cur, path):
    for p in path:
        if not isinstance(cur, dict) or p not in cur: return None
        cur = cur[p]
    return cur
def truthy(v): return v not in ("", False, None, 0)
def text(v): return ("true" if v else "false") if isinstance(v, bool) else str(v)
def expand(s, ctx):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: text(Expr(m.group(1), ctx).value()), str(s))
def condition(cond, ctx):
    if cond is None: return ctx["job"].status == 0
    c = str(cond).strip()
    if c.startswith("${{") and c.endswith("}}"): c = c[3:-2]
    if "always()" not in c and ctx["job"].status != 0: return False   # success() is implied
    return truthy(Expr(c, ctx).value())

# ---- the runner ----------------------------------------------------------------------------

class Job:
    """One job's runner state: a workspace, RUNNER_TEMP, GITHUB_PATH and the output so far."""
    def __init__(self, name, files, upload_fails=False, event=None, no_go=False):
        self.dir = os.path.join(TMP, name)
        self.ws = os.path.join(self.dir, "workspace")
        os.makedirs(self.ws)
        os.makedirs(os.path.join(self.dir, "runner-temp"))
        for path, body in files.items():
            os.makedirs(os.path.dirname(os.path.join(self.ws, path)), exist_ok=True)
            open(os.path.join(self.ws, path), "w", encoding="utf-8").write(body)
        # GOPATH is the job's own (GOMODCACHE stays shared); no kokua-lint or kokua-compile from
        # the caller's PATH.
        self.gopath = os.path.join(self.dir, "gopath")
        self.setup_go = []
        self.paths = []
        self.out = ""
        self.uploads = []    # (sarif_file, category) of each "upload"
        self.artifacts = []  # (name, files, their text) of each artifact upload
        self.uses_outputs = {}
        self.setups = []     # the with: of each setup-go
        self.caches = []     # the with: of each actions/cache
        self.no_go = no_go   # no go on PATH
        self.order = []      # step labels in the order they ran
        self.upload_fails = upload_fails
        self.event = event if event is not None else {}   # github.event
        self.status = 0
        self.n = 0

    def env(self, extra):
        env = dict(os.environ, CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=self.ws,
                   RUNNER_TEMP=os.path.join(self.dir, "runner-temp"), GOPATH=self.gopath,
                   RUNNER_OS=RUNNER_OS, RUNNER_ARCH=RUNNER_ARCH, GITHUB_SERVER_URL=SERVER_URL)
        hidden = ("kokua-lint", "kokua-compile") + (("go",) if self.no_go else ())
        inherited = [d for d in os.environ["PATH"].split(os.pathsep) if d and not any(
                     os.path.exists(os.path.join(d, c)) for c in hidden)]
        env["PATH"] = os.pathsep.join(self.paths + self.setup_go + inherited)
        env.update(extra)
        return env

    def run(self, label, script, shell, env):
        """Runs one `run:` script; returns its exit status and the outputs it wrote."""
        self.n += 1
        path = os.path.join(self.dir, "step%d.sh" % self.n)
        open(path, "w").write(script)
        outputs = os.path.join(self.dir, "output%d" % self.n)
        ghpath = os.path.join(self.dir, "path%d" % self.n)
        for f in (outputs, ghpath): open(f, "w").close()
        extra = dict(env, GITHUB_OUTPUT=outputs, GITHUB_PATH=ghpath)
        for name in ("GITHUB_ENV", "GITHUB_STEP_SUMMARY"):
            extra[name] = os.path.join(self.dir, name.lower())
            open(extra[name], "a").close()
        argv = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", path],
                None: ["bash", "-e", path]}[shell]
        p = subprocess.run(argv, cwd=self.ws, env=self.env(extra), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print("  - %s: exit %d" % (label, p.returncode))
        if p.stdout: show(p.stdout)
        self.out += p.stdout
        self.order.append(label)
        # The runner prepends GITHUB_PATH's lines to PATH for the steps after.
        self.paths = list(reversed([l for l in open(ghpath).read().split("\n") if l])) + self.paths
        outs = {}
        for line in open(outputs).read().split("\n"):
            if line:
                check("=" in line, "%s: GITHUB_OUTPUT line %r is not name=value" % (label, line))
                k, v = line.split("=", 1)
                outs[k] = v
        return p.returncode, outs

    def uses(self, label, ref, with_):
        """The `uses:` steps that cannot run here; returns an exit status."""
        name = ref.split("@")[0]
        self.order.append(label)
        if name == "actions/checkout":
            if with_.get("repository") == "kokua-policy/kokua-policy":
                dest = os.path.join(self.ws, with_.get("path", ""))
                check(dest != self.ws, "%s: a checkout of kokua-policy needs a path" % label)
                shutil.copytree(ACTION_PATH, dest)
                print("  - %s: %s of kokua-policy at %s simulated: a copy of the working tree in %s"
                      % (label, ref, with_.get("ref"), with_["path"]))
            else:
                print("  - %s: %s not run: the workspace is ready" % (label, ref))
            return 0
        if name == "actions/setup-go":
            self.setups.append(dict(with_))
            version_file = with_.get("go-version-file", "")
            if version_file: version_file = os.path.join(self.ws, version_file)
            if with_.get("go-version"):
                check(with_["go-version"] == GO_VERSION, "%s: go-version %r, want %r as in go.mod" % (label, with_["go-version"], GO_VERSION))
            else:
                check(version_file and os.path.isfile(version_file) and
                      re.search(r"^go %s" % re.escape(GO_VERSION), open(version_file).read(), re.M),
                      "%s: go-version-file %r is not a go.mod asking for Go %s" % (label, version_file, GO_VERSION))
            print("  - %s: %s not run: Go is on PATH; $(go env GOPATH)/bin added to PATH, as it does" % (label, ref))
            self.setup_go = [os.path.join(self.gopath, "bin")]
            return 0
        if name == "actions/cache":
            self.caches.append(dict(with_))
            check(re.fullmatch(r"kokua-policy-go-%s-%s-go[0-9.]+-[0-9a-f]{64}" % (RUNNER_OS, RUNNER_ARCH), with_.get("key", "")),
                  "%s: key %r is not kokua-policy-go-OS-ARCH-GOVERSION-<sha256 of go.sum>" % (label, with_.get("key")))
            gosum = hashlib.sha256(open(os.path.join(ACTION_PATH, "go.sum"), "rb").read()).hexdigest()
            check(with_["key"].endswith("-" + gosum), "%s: key %r is not from the action's go.sum" % (label, with_["key"]))
            check(with_["key"].startswith(with_.get("restore-keys", "-")), "%s: restore-keys %r is not the key's prefix" % (label, with_.get("restore-keys")))
            paths = [l for l in with_.get("path", "").split("\n") if l.strip()]
            want = [subprocess.run(["go", "env", v], stdout=subprocess.PIPE, text=True, check=True).stdout.strip() for v in ("GOMODCACHE", "GOCACHE")]
            check(paths == want, "%s: paths %r, want Go's module and build caches %r" % (label, paths, want))
            print("  - %s: %s not run: key %s, nothing restored" % (label, ref, with_["key"]))
            return 0
        if name == "github/codeql-action/upload-sarif":
            f = os.path.join(self.ws, with_.get("sarif_file", ""))
            check(os.path.isfile(f), "%s: no %s to upload" % (label, with_.get("sarif_file")))
            log = json.load(open(f))
            check(log.get("version") == "2.1.0", "%s: SARIF version %r" % (label, log.get("version")))
            n = sum(len(r.get("results", [])) for r in log["runs"])
            self.uploads.append((with_["sarif_file"], with_.get("category")))
            if self.upload_fails:
                print("  - %s: %s simulated as refused: Resource not accessible by integration (a read-only token)" % (label, ref))
                return 1
            print("  - %s: %s not run; %s is SARIF 2.1.0 with %d result(s), category %r" %
                  (label, ref, with_["sarif_file"], n, with_.get("category")))
            return 0
        if name == "actions/upload-artifact":
            path = with_.get("path", "")
            check(os.path.isdir(path), "%s: no folder %r to upload" % (label, path))
            files = sorted(os.listdir(path))
            check(files and all(f.endswith(".html") for f in files), "%s: %r is not a folder of pages" % (label, files))
            for f in files:
                page = open(os.path.join(path, f), encoding="utf-8").read()
                check(page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page, "%s: %s is not the policy explorer" % (label, f))
            self.artifacts.append((with_.get("name"), files, {f: open(os.path.join(path, f), encoding="utf-8").read() for f in files}))
            self.uses_outputs = {"artifact-url": "https://github.com/OWNER/REPO/actions/runs/1/artifacts/%d" % len(self.artifacts)}
            print("  - %s: %s not run; would upload %s as %r" % (label, ref, ", ".join(files), with_.get("name")))
            return 0
        raise Fail("%s: cannot run uses: %s here" % (label, ref))

    def steps(self, steps, ctx, where):
        """Runs steps as the runner does: each `if:` (success() by default), `continue-on-error:`."""
        ctx.setdefault("steps", {})
        for i, s in enumerate(steps, 1):
            label = "%s step %d %r" % (where, i, s.get("name", s.get("uses", s.get("run", ""))[:40]))
            ctx["job"] = self
            if not condition(s.get("if"), ctx):
                print("  - %s: skipped (if: %s)" % (label, s.get("if", "success()")))
                continue
            env = dict(ctx.get("env", {}))
            env.update({k: expand(v, ctx) for k, v in s.get("env", {}).items()})
            outs = {}
            if "uses" in s:
                with_ = {k: expand(v, ctx) for k, v in s.get("with", {}).items()}
                if s["uses"] == "./" or s["uses"].startswith("kokua-policy/kokua-policy@"):
                    status, outs = run_action(self, with_, s["uses"].partition("@")[2])
                else:
                    self.uses_outputs = {}
                    status = self.uses(label, s["uses"], with_)
                    outs = self.uses_outputs
            else:
                check("${{" not in s["run"] or where == "action", "%s: expressions in run: are not simulated" % label)
                status, outs = self.run(label, expand(s["run"], ctx), s.get("shell"), env)
            if "id" in s:
                ctx["steps"][s["id"]] = {"outputs": outs}
            if status and not s.get("continue-on-error"):
                self.status = status
            elif status:
                print("  - %s: failed, continue-on-error" % label)

def run_action(job, with_, ref=""):
    """The composite action's steps, with the inputs with_ gives, called at ref (empty for
    `uses: ./`); returns the exit status and the action's outputs."""
    declared = ACTION.get("inputs", {})
    unknown = set(with_) - set(declared)
    check(not unknown, "inputs action.yml does not declare: %s" % sorted(unknown))
    inputs = {k: text(v.get("default", "")) for k, v in declared.items()}
    inputs.update({k: text(v) for k, v in with_.items()})
    github = {"action_path": ACTION_PATH, "event": job.event, "action_ref": ref, "token": "",
              "action_repository": "kokua-policy/kokua-policy" if ref else ""}
    ctx = {"inputs": inputs, "github": github, "steps": {},
           "env": {"GITHUB_ACTION_PATH": ACTION_PATH}}
    before = job.status
    job.status = 0
    job.steps(ACTION["runs"]["steps"], ctx, "action")
    outputs = {k: expand(v["value"], dict(ctx, job=job)) for k, v in ACTION.get("outputs", {}).items()}
    status = job.status
    job.status = before
    print("  - action outputs: %s" % json.dumps(outputs, sort_keys=True))
    job.action_outputs = outputs
    return status, outputs

def run_workflow(job, body):
    """The single job of a workflow from docs/ci.md."""
    wf = yaml.safe_load(body)
    (name, spec), = wf["jobs"].items()
    job.steps(spec["steps"], {"github": {"event": job.event}}, "workflow")
    return job.status

# ---- the configs -------------------------------------------------------------------------------

def config(tool, extra=""):
    return ("# assistant loads mcp on demand, and asks before adding a server.\n"
            '[assistant]\nagent = "assistant"\n\n[assistant.tools]\nconfirm = ["mcp.%s"]\n'
            'review = []\n%s\n[agents.assistant]\ndescription = "The assistant the user talks to."\n\n'
            '[agents.assistant.tools]\navailable = ["memory", "mcp", "time"]\n'
            'resident = ["memory", "time"]\n' % (tool, extra))
BROKEN, FIXED = config("add_mcp_servr"), config("add_mcp_server")
# BARE writes the gated tool without its toolset, which one toolset provides: the safe fix qualifies
# it to FIXED. (BROKEN's misspelt name has two close matches, a choice --fix leaves to a person.)
BARE = FIXED.replace('confirm = ["mcp.add_mcp_server"]', 'confirm = ["add_mcp_server"]')
# FIXED's heads for the diff: WIDE drops the confirm gate on add_mcp_server (a widening, R68's
# "runs unasked"); NARROW also gates the time toolset (a narrowing). Both lint clean.
WIDE = FIXED.replace('confirm = ["mcp.add_mcp_server"]', 'confirm = []')
NARROW = FIXED.replace('confirm = ["mcp.add_mcp_server"]', 'confirm = ["mcp.add_mcp_server", "time"]')
WIDENED_ROW = "| ⚠️ widened | ⚠️ high | `add_mcp_server` | confirm: asks the user (once loaded) | runs unasked (once loaded) |"
NARROWED_ROW = "| narrowed |  | `convert_time`, `get_current_date_and_time` | runs unasked | confirm: asks the user |"
# WIDER widens WIDE further (misc for the assistant): the acceptance label of WIDE's digest does not
# accept it.
WIDER = WIDE.replace('available = ["memory", "mcp", "time"]', 'available = ["memory", "mcp", "time", "misc"]')
WARNING = config("add_mcp_server", "# kokua-lint: ignore[shadowed-tool] nothing is shadowed here any more")
MANIFEST = subprocess.run(["go", "-C", REPO, "run", "./cmd/kokua-lint", "manifest"], check=True,
                          stdout=subprocess.PIPE, text=True).stdout
ANNOTATION = ("::error file=config.toml,line=6,col=12,endLine=6,endColumn=31,"
              "title=pending-dead-entry::[assistant.tools].confirm has an entry")

def annotations(out):
    return [l for l in out.split("\n") if re.match(r"::(error|warning|notice) ", l)]

def sarif_results(job):
    f = os.path.join(job.ws, "kokua-lint.sarif")
    check(os.path.isfile(f), "kokua-lint.sarif was not written")
    log = json.load(open(f))
    check(log.get("version") == "2.1.0", "kokua-lint.sarif: version %r" % log.get("version"))
    return [(r.get("ruleId"), r.get("level")) for run in log["runs"] for r in run.get("results", [])]

cases = 0
def case(title, files, runner, want_status, upload_fails=False, history=None, event=None, no_go=False):
    """One job. history, (base files, head files), makes the workspace a shallow clone of a
    pull-request branch; event is github.event, by default a pull request on that branch."""
    global cases
    cases += 1
    step("case %d: %s" % (cases, title))
    job = Job("case%d" % cases, {} if history else files, upload_fails, no_go=no_go)
    if history:
        job.base = pull_request(job, *history)
        job.event = {"pull_request": {"base": {"sha": job.base}, "labels": []}}
    if event is not None:
        job.event = event(job) if callable(event) else event
    status = runner(job)
    check(status == want_status, "%s: exit %d, want %d" % (title, status, want_status))
    return job

def git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@example.com", "-c", "commit.gpgsign=false",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout.strip()

def pull_request(job, base, head):
    """A real history for a pull request: an origin repository whose main holds the files base
    gives, a branch pr that changes them to head, and the workspace a shallow clone of pr (as
    actions/checkout makes one), without the base commit. Returns the base commit's SHA."""
    origin = os.path.join(job.dir, "origin")
    os.makedirs(origin)
    git("init", "-q", cwd=origin)
    def write(files):
        for path, body in files.items():
            if body is None:   # deleted by the head
                os.remove(os.path.join(origin, path))
                continue
            os.makedirs(os.path.dirname(os.path.join(origin, path)) or origin, exist_ok=True)
            open(os.path.join(origin, path), "w", encoding="utf-8").write(body)
        git("add", "-A", cwd=origin)
    write(base)
    git("commit", "-q", "-m", "base", cwd=origin)
    sha = git("rev-parse", "HEAD", cwd=origin)
    git("checkout", "-q", "-b", "pr", cwd=origin)
    write(head)
    git("commit", "-q", "-m", "head", cwd=origin)
    git("clone", "-q", "--depth", "1", "--branch", "pr", "file://" + origin, job.ws, cwd=job.dir)
    check(subprocess.run(["git", "cat-file", "-e", sha + "^{commit}"], cwd=job.ws, stderr=subprocess.DEVNULL).returncode != 0,
          "the shallow clone already has the base commit: the fetch would not be exercised")
    return sha

def summary(job):
    f = os.path.join(job.dir, "github_step_summary")
    return open(f, encoding="utf-8").read() if os.path.exists(f) else ""

def built(job):
    d = os.path.join(job.dir, "runner-temp/kokua-lint/bin")
    return sorted(os.listdir(d)) if os.path.isdir(d) else []

def action_block(page, step_name):
    """The block after `<!-- action.yml step: NAME -->` in page, and that step as action.yml
    writes it (its lines, less the list's indent)."""
    lines = open(os.path.join(REPO, page), encoding="utf-8").read().split("\n")
    marker = "<!-- action.yml step: %s -->" % step_name
    check(lines.count(marker) == 1, "%s: want exactly one line %r" % (page, marker))
    i = lines.index(marker) + 1
    while not lines[i].startswith("```"): i += 1
    block = lines[i + 1:lines.index("```", i + 1)]
    src = open(os.path.join(REPO, "action.yml"), encoding="utf-8").read().split("\n")
    start = src.index("    - name: " + step_name)
    end = start + 1
    while end < len(src) and src[end].strip() and not src[end].startswith("    - ") and not src[end].startswith("    #"):
        end += 1
    return block, [l[4:] for l in src[start:end]]

def expect_broken(job):
    a = annotations(job.out)
    check(len(a) == 1 and a[0].startswith(ANNOTATION), "want one annotation starting %r, got %r" % (ANNOTATION, a))
    check(a[0].endswith("%0Ahelp: write 'mcp.add_mcp_server'"), "no help: in %r" % a[0])
def expect_bare(job):
    a = annotations(job.out)
    check(len(a) == 1 and ",title=entry-shape::" in a[0], "want one entry-shape annotation, got %r" % a)
    check(a[0].endswith("%0Ahelp: write 'mcp.add_mcp_server'"), "no help: in %r" % a[0])
def expect_clean(job):
    check(not annotations(job.out), "annotations on a clean config: %r" % annotations(job.out))

try:
    check("version" not in ACTION["inputs"], "action.yml still has a version input: the ref is the one pin")
    build = [s for s in ACTION["runs"]["steps"] if "$GITHUB_ACTION_PATH" in s.get("run", "")]
    check(build and not any("go install" in b["run"] for b in build), "action.yml does not build from $GITHUB_ACTION_PATH")
    setup = [s for s in ACTION["runs"]["steps"] if s.get("uses", "").startswith("actions/setup-go@")]
    check(len(setup) == 1 and str(setup[0]["with"].get("cache")).lower() == "false"
          and "cache-dependency-path" not in setup[0]["with"],
          "actions/setup-go must run with its cache off and no cache-dependency-path (it cannot hash the action's go.sum)")
    cache = [s for s in ACTION["runs"]["steps"] if s.get("uses", "").startswith("actions/cache@")]
    check(len(cache) == 1 and cache[0]["with"].get("key") == "${{ steps.gocache.outputs.key }}",
          "action.yml: want one actions/cache step keyed by the gocache step's output")
    check("category" in ACTION["inputs"], "action.yml has no category input")
    check({"errors", "warnings", "sarif-file"} <= set(ACTION.get("outputs", {})), "action.yml lacks outputs")
    # The annotations and the SARIF log come from one run; the fix step's runs (--diff, --fix)
    # report nothing of their own.
    lint_steps = [s for s in ACTION["runs"]["steps"] if re.search(r"^\s*kokua-lint (?!--diff |--fix )", s.get("run", ""), re.M)]
    check(len(lint_steps) == 1, "action.yml runs kokua-lint %d times for the findings, want once" % len(lint_steps))
    check(not [s for s in ACTION["runs"]["steps"] if "${{" in s.get("run", "")],
          "action.yml splices an expression into a run: script; pass it through env:")
    check({"mode", "allow-widen", "base"} <= set(ACTION["inputs"]) and "widened" in ACTION["outputs"],
          "action.yml lacks the diff mode's inputs (mode, allow-widen, base) or the widened output")
    diff_steps = [s for s in ACTION["runs"]["steps"] if "scripts/action-diff.sh" in s.get("run", "")]
    check(len(diff_steps) == 1 and "github.event.pull_request.base.sha" in diff_steps[0]["env"]["KOKUA_DIFF_BASE"],
          "action.yml: want one step running scripts/action-diff.sh with the pull request's base in KOKUA_DIFF_BASE")
    block, want = action_block("docs/diff.md", "Policy diff against the base")
    check(block == want, "docs/diff.md's copy of action.yml's diff step differs from it:\n%s" % "\n".join(want))

    # The version the docs pin (TestDocsPinTheRelease holds them to CHANGELOG.md); no release of it
    # is served until the download cases below.
    PIN = re.search(r"uses: kokua-policy/kokua-policy@(\S+)", doc_block("github-action")).group(1)
    for block in ("github-action", "github-action-sarif", "github-plain"):
        body = doc_block(block)
        sarif = "sarif" in body
        for broken in (True, False):
            job = case("docs/ci.md %s, %s config" % (block, "broken" if broken else "fixed"),
                       {"config.toml": BROKEN if broken else FIXED},
                       lambda job: run_workflow(job, body), 1 if broken else 0)
            if "kokua-policy/kokua-policy@" in body:
                check(os.listdir(os.path.join(job.dir, "runner-temp/kokua-lint/bin")) == ["kokua-lint"],
                      "the action did not build kokua-lint into RUNNER_TEMP")
                outs = job.action_outputs
                check(outs["errors"] == ("1" if broken else "0") and outs["warnings"] == "0",
                      "outputs %r" % outs)
                check(outs["sarif-file"] == ("kokua-lint.sarif" if sarif else ""), "sarif-file output %r" % outs)
                check("has no release binaries" in job.out and "kokua-lint version %s\n" % PIN in job.out,
                      "a tag without a release: want the build from the checkout, stamped %s" % PIN)
                check(len(job.setups) == 1 and len(job.caches) == 1, "setups %r, caches %r" % (job.setups, job.caches))
            else:
                check(os.listdir(os.path.join(job.gopath, "bin")) == ["kokua-lint"], "kokua-lint was not installed into GOPATH/bin")
            expect_broken(job) if broken else expect_clean(job)
            if sarif:
                results = sarif_results(job)
                want = [("pending-dead-entry", "error")] if broken else []
                check(results == want, "SARIF results %r, want %r" % (results, want))
                check([u[0] for u in job.uploads] == ["kokua-lint.sarif"], "uploads %r" % job.uploads)
                order = [l for l in job.order if "Upload" in l or "upload-sarif" in l or "'kokua-lint'" in l or "(SARIF)" in l]
                check(order and "Upload" not in order[0] and "upload-sarif" not in order[0], "the upload ran before the annotations: %r" % order)
            else:
                check(not os.path.exists(os.path.join(job.ws, "kokua-lint.sarif")), "SARIF written unasked")
                check(not job.uploads, "uploads %r" % job.uploads)

    # ---- a released tag: the download ---------------------------------------------------------

    goos = {"Linux": "linux", "macOS": "darwin", "Windows": "windows"}[RUNNER_OS]
    goarch = {"X64": "amd64", "ARM64": "arm64"}[RUNNER_ARCH]
    asset = lambda c: "%s-%s-%s" % (c, goos, goarch)
    built_release = os.path.join(TMP, "built-release")
    step("the release %s for %s/%s: bash scripts/build-release.sh" % (PIN, goos, goarch))
    subprocess.run(["bash", os.path.join(REPO, "scripts/build-release.sh"), "-o", built_release, PIN, "%s/%s" % (goos, goarch)],
                   check=True, stdout=subprocess.DEVNULL)
    release_dir = os.path.join(RELEASES, "kokua-policy/kokua-policy/releases/download", PIN)
    def publish(tamper=None, drop=None):
        """Serves the release, one binary changed by a byte or left out."""
        shutil.rmtree(release_dir, ignore_errors=True)
        shutil.copytree(built_release, release_dir)
        if tamper: open(os.path.join(release_dir, tamper), "ab").write(b"\0")
        if drop: os.remove(os.path.join(release_dir, drop))
        del REQUESTS[:]
    def downloaded():
        return sorted(r.rsplit("/", 1)[1] for r in REQUESTS)

    body = doc_block("github-action")
    for broken in (True, False):
        publish()
        job = case("docs/ci.md github-action at the released tag %s, %s config: the release's kokua-lint, checked, no Go on PATH"
                   % (PIN, "broken" if broken else "fixed"), {"config.toml": BROKEN if broken else FIXED},
                   lambda job: run_workflow(job, body), 1 if broken else 0, no_go=True)
        expect_broken(job) if broken else expect_clean(job)
        check(built(job) == ["kokua-lint"] and job.action_outputs["errors"] == ("1" if broken else "0"), "outputs %r" % job.action_outputs)
        check(not job.setups and not job.caches, "Go was set up at a released tag")
        check(downloaded() == ["SHA256SUMS", asset("kokua-lint")], "downloaded %r" % downloaded())
        check("kokua-lint %s: downloaded from the release, sha256 " % PIN in job.out, "the download is not reported")
    publish()
    job = case("mode: both at the released tag: kokua-lint and kokua-compile downloaded, a widening fails", {},
               lambda job: run_action(job, {"mode": "both"}, PIN)[0], 1,
               history=({"config.toml": FIXED}, {"config.toml": WIDE}), no_go=True)
    check(job.action_outputs["widened"] == "true" and WIDENED_ROW in summary(job) and built(job) == ["kokua-compile", "kokua-lint"],
          "outputs %r, built %r" % (job.action_outputs, built(job)))
    check(downloaded() == sorted(["SHA256SUMS", asset("kokua-lint"), asset("kokua-compile")]) and not job.setups, "downloaded %r" % downloaded())
    publish(tamper=asset("kokua-lint"))
    job = case("a release whose kokua-lint does not match SHA256SUMS: refused, nothing installed, nothing built",
               {"config.toml": FIXED}, lambda job: run_action(job, {}, PIN)[0], 1, no_go=True)
    check("does not match its SHA256SUMS" in job.out and built(job) == [] and not job.setups, "a tampered binary was not refused")
    publish(drop=asset("kokua-compile"))
    job = case("a release without this platform's kokua-compile: refused", {"config.toml": FIXED},
               lambda job: run_action(job, {"mode": "diff"}, PIN)[0], 1, no_go=True)
    check("has SHA256SUMS but no %s" % asset("kokua-compile") in job.out and not job.setups, "a missing binary was not refused")
    shutil.rmtree(release_dir)
    del REQUESTS[:]
    job = case("a branch ref: nothing downloaded, built from the checkout with the branch as its version",
               {"config.toml": FIXED}, lambda job: run_action(job, {}, "main")[0], 0)
    check("kokua-lint version main\n" in job.out and not REQUESTS and len(job.caches) == 1, "requests %r" % REQUESTS)
    job = case("uses: ./ (no ref): built, its version from build information (none in a copy without .git)",
               {"config.toml": FIXED}, lambda job: run_action(job, {})[0], 0)
    check("kokua-lint version devel\n" in job.out and not REQUESTS, "requests %r" % REQUESTS)

    two = {"a/config.toml": FIXED, "b/config.toml": WARNING, "kokua.manifest.json": MANIFEST}
    for fail_on, configs, want in (("warning", "a/config.toml b/config.toml", 1),
                                   ("error", "a/config.toml\nb/config.toml\n", 0)):
        with_ = {"config": configs, "manifest": "kokua.manifest.json", "fail-on": fail_on}
        job = case("configs %r, a manifest, a warning, fail-on: %s" % (configs, fail_on), two,
                   lambda job: run_action(job, with_)[0], want)
        a = annotations(job.out)
        check(len(a) == 1 and a[0].startswith("::warning file=b/config.toml,line=8,col=1,")
              and ",title=suppression-unused::" in a[0], "want one suppression-unused warning, got %r" % a)
        check(job.action_outputs["warnings"] == "1" and job.action_outputs["errors"] == "0", "outputs %r" % job.action_outputs)
        check("embedded default" not in job.out, "the manifest input was not used")

    job = case("a matrix of two calls, each with its own category", {"a/config.toml": BROKEN, "b/config.toml": FIXED},
               lambda job: max(run_action(job, {"config": c, "sarif": True, "category": "kokua-lint-" + c[0]})[0]
                               for c in ("a/config.toml", "b/config.toml")), 1)
    check([u[1] for u in job.uploads] == ["kokua-lint-a", "kokua-lint-b"], "categories %r" % job.uploads)

    job = case("a fork's pull request: the upload is refused, the annotations stand, findings still fail",
               {"config.toml": BROKEN}, lambda job: run_action(job, {"sarif": True})[0], 1, upload_fails=True)
    expect_broken(job)
    check(job.uploads and "Fail on findings" in job.order[-1], "the job did not reach the last step: %r" % job.order)
    job = case("a fork's pull request on a clean config: the refused upload does not fail the job",
               {"config.toml": FIXED}, lambda job: run_action(job, {"sarif": True})[0], 0, upload_fails=True)

    job = case("sarif: 'true' and a missing config: the lint step fails (exit 2), nothing is uploaded",
               {"config.toml": FIXED}, lambda job: run_action(job, {"config": "missing.toml", "sarif": True})[0], 2)
    check("missing.toml" in job.out and not job.uploads, "want a message naming missing.toml, no upload")

    job = case("a config input with shell syntax is data, not commands", {"config.toml": FIXED},
               lambda job: run_action(job, {"config": "config.toml;touch${IFS}pwned $(touch pwned2)"})[0], 2)
    check(not any(os.path.exists(os.path.join(job.ws, f)) for f in ("pwned", "pwned2")), "input ran as a command")

    # ---- the diff mode, on a real git history -------------------------------------------------

    def expect_diff(job, widened, rows, built_want):
        out = job.action_outputs
        check(out["widened"] == widened, "widened output %r, want %r" % (out["widened"], widened))
        check(built(job) == built_want, "built %r, want %r" % (built(job), built_want))
        md = summary(job)
        check(md.startswith("### Policy diff: `%s:config.toml` → `config.toml`" % job.base[:12]),
              "the job summary does not start with the diff's markdown heading:\n%s" % md)
        for row in rows:
            check(row in md, "the job summary lacks %r:\n%s" % (row, md))
        check("fetching %s from origin" % job.base in job.out, "the base commit was not fetched")
        # The policy explorer of the change, uploaded and linked (issue 23).
        check(len(job.artifacts) == 1 and job.artifacts[0][0] == "kokua-policy-explorer" and "config.toml.html" in job.artifacts[0][1],
              "want the policy explorer uploaded as kokua-policy-explorer, got %r" % [a[:2] for a in job.artifacts])
        page = job.artifacts[0][2]["config.toml.html"]
        check(re.search(r"Changes since %s[0-9a-f]*:config\.toml" % job.base[:7], page) and
              ('<tr class="widened">' in page) == (widened == "true"), "the uploaded page is not compared with the base")
        check("[Download the policy explorer](https://github.com/OWNER/REPO/actions/runs/1/artifacts/1)" in md,
              "the job summary does not link the policy explorer:\n%s" % md)

    body = doc_block("github-action-diff")
    job = case("docs/ci.md github-action-diff: a pull request that widens fails", {}, lambda job: run_workflow(job, body), 1,
               history=({"config.toml": FIXED}, {"config.toml": WIDE}))
    expect_diff(job, "true", [WIDENED_ROW, "1 widened, 0 narrowed**"], ["kokua-compile", "kokua-lint"])
    # The event has no pull request number, so comment: 'true' warns that it cannot comment
    # (scripts/test-action-diff.sh runs the comment with a stand-in for gh).
    a = [x for x in annotations(job.out) if not x.startswith("::warning title=kokua-compile diff::no pull request to comment on")]
    check(job.action_outputs["errors"] == "0" and len(a) == 1 and a[0].startswith("::error file=config.toml,line=6,col=1,title=kokua-compile diff%3A high::"),
          "the lint of a clean head, and the diff's one annotation on the confirm line: %r %r" % (job.action_outputs, a))
    check("this change widens what some agent can do" in job.out, "the last step does not say why it failed")
    digest = job.action_outputs["digest"]
    label = "kokua-accept-" + digest
    check(re.fullmatch(r"[0-9a-f]{12}", digest) and ("add the label `%s`" % label) in summary(job), "digest %r, summary %r" % (digest, summary(job)))
    labelled = lambda job: {"pull_request": {"base": {"sha": job.base}, "labels": [{"name": "docs"}, {"name": label}]}}
    job = case("docs/ci.md github-action-diff: the same pull request labelled %s passes" % label, {},
               lambda job: run_workflow(job, body), 0,
               history=({"config.toml": FIXED}, {"config.toml": WIDE}), event=labelled)
    expect_diff(job, "true", [WIDENED_ROW, "**Accepted** by the label `%s`" % label], ["kokua-compile", "kokua-lint"])
    job = case("docs/ci.md github-action-diff: a later push that widens further fails again under the same label", {},
               lambda job: run_workflow(job, body), 1,
               history=({"config.toml": FIXED}, {"config.toml": WIDER}), event=labelled)
    expect_diff(job, "true", [WIDENED_ROW, "accepts another set of widenings"], ["kokua-compile", "kokua-lint"])
    check(job.action_outputs["digest"] != digest, "a further widening kept the digest")
    job = case("docs/ci.md github-action-diff: a pull request that narrows passes", {}, lambda job: run_workflow(job, body), 0,
               history=({"config.toml": FIXED}, {"config.toml": NARROW}))
    expect_diff(job, "false", [NARROWED_ROW, "0 widened, 2 narrowed."], ["kokua-compile", "kokua-lint"])
    job = case("docs/ci.md github-action-diff on a push: the lint runs, the diff is skipped with a notice",
               {"config.toml": BROKEN}, lambda job: run_workflow(job, body), 1, event={})
    a = annotations(job.out)
    check(len(a) == 2 and a[0].startswith(ANNOTATION) and a[1].startswith("::notice title=kokua-compile diff::no pull request base"),
          "want the lint's error and the diff's notice, got %r" % a)
    check(job.action_outputs["widened"] == ""
          and summary(job) == "", "a push: want no diff, a notice, an empty summary")

    wide = ({"config.toml": FIXED, "team/config.toml": FIXED}, {"config.toml": WIDE, "team/config.toml": NARROW})
    configs = "config.toml\nteam/config.toml\n"
    job = case("mode: diff on two configs, one widening: only kokua-compile is built, the step fails", {},
               lambda job: run_action(job, {"mode": "diff", "config": configs})[0], 1, history=wide)
    expect_diff(job, "true", [WIDENED_ROW, "### Policy diff: `%s:team/config.toml`" % job.base[:12], NARROWED_ROW], ["kokua-compile"])
    check(job.action_outputs["errors"] == "" and all("title=kokua-compile diff" in x for x in annotations(job.out)), "mode: diff ran the lint")
    check("Fail on findings" in job.order[-1], "the last step did not run: %r" % job.order)
    job = case("mode: diff with allow-widen: 'true' reports the widening and passes", {},
               lambda job: run_action(job, {"mode": "diff", "config": configs, "allow-widen": "true"})[0], 0, history=wide)
    expect_diff(job, "true", [WIDENED_ROW, NARROWED_ROW], ["kokua-compile"])
    check(not any("Fail on findings" in l for l in job.order) or "skipped" in job.out, "the fail step ran")

    job = case("mode: both on a head with a lint error: annotated, not compared, fails", {},
               lambda job: run_action(job, {"mode": "both", "sarif": True})[0], 1,
               history=({"config.toml": FIXED}, {"config.toml": BROKEN}))
    expect_broken(job)
    check(job.action_outputs["widened"] == "false" and "Not compared: this version has errors" in summary(job),
          "outputs %r, summary %r" % (job.action_outputs, summary(job)))
    check(job.uploads and "kokua-lint: 1 error(s)" in job.out and "a config has errors" in job.out, "the last step's message")

    job = case("mode: diff on a push with a base input: compared with that revision", {},
               lambda job: run_action(job, {"mode": "diff", "base": job.base})[0], 1,
               history=({"config.toml": FIXED}, {"config.toml": WIDE}), event={})
    expect_diff(job, "true", [WIDENED_ROW], ["kokua-compile"])

    for title, with_ in (("mode: bogus", {"mode": "bogus"}),
                         ("mode: diff with sarif: 'true'", {"mode": "diff", "sarif": True})):
        job = case("%s is refused before anything is built" % title, {"config.toml": FIXED},
                   lambda job: run_action(job, with_)[0], 2)
        check(built(job) == [] and "::error title=kokua-lint::" in job.out, "built %r" % built(job))

    job = case("a base input with shell syntax is data, not commands", {},
               lambda job: run_action(job, {"mode": "diff", "base": "$(touch pwned)"})[0], 2,
               history=({"config.toml": FIXED}, {"config.toml": WIDE}))
    check(not os.path.exists(os.path.join(job.ws, "pwned")) and "is not in this clone" in job.out, "input ran as a command")

    # ---- fix: 'true' ----------------------------------------------------------------------------

    def fix_summary_diff(job):
        """The diff in the job summary's kokua-lint --fix section."""
        m = re.search(r"### kokua-lint --fix\n.*?\n(`{3,})diff\n(.*?)\n\1\n", summary(job), re.S)
        check(m, "the job summary has no kokua-lint --fix diff:\n%s" % summary(job))
        return m.group(2) + "\n"
    def applies(patch, before, after):
        """Applying patch to config.toml holding before, with git apply, gives after."""
        d = os.path.join(TMP, "apply%d" % cases)
        os.makedirs(d)
        open(os.path.join(d, "config.toml"), "w").write(before)
        open(os.path.join(d, "fix.diff"), "w").write(patch)
        p = subprocess.run(["git", "apply", "fix.diff"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "git apply of the summary's diff: %s" % p.stdout)
        check(open(os.path.join(d, "config.toml")).read() == after, "the summary's diff does not give the fixed config")

    body = doc_block("github-action-fix")
    job = case("docs/ci.md github-action-fix, broken config: annotated as committed, then fixed in the workspace",
               {"config.toml": BARE}, lambda job: run_workflow(job, body), 1)
    expect_bare(job)
    check(job.action_outputs["fixed"] == "true" and job.action_outputs["errors"] == "1", "outputs %r" % job.action_outputs)
    check(open(os.path.join(job.ws, "config.toml")).read() == FIXED, "the workspace's config.toml is not the fixed config")
    applies(fix_summary_diff(job), BARE, FIXED)
    check(job.order.index(next(l for l in job.order if "'kokua-lint --fix'" in l)) >
          job.order.index(next(l for l in job.order if "'kokua-lint'" in l)), "the fix ran before the lint: %r" % job.order)
    job = case("docs/ci.md github-action-fix, fixed config: nothing to fix, passes",
               {"config.toml": FIXED}, lambda job: run_workflow(job, body), 0)
    expect_clean(job)
    check(job.action_outputs["fixed"] == "false" and "kokua-lint --fix" not in summary(job), "outputs %r" % job.action_outputs)
    check(open(os.path.join(job.ws, "config.toml")).read() == FIXED, "a clean config was rewritten")
    unsafe = FIXED.replace('"memory", "mcp", "time"', '"memry", "mcp", "time"')
    job = case("fix: 'true' on an unknown toolset: the unsafe fix is not made", {"config.toml": unsafe},
               lambda job: run_action(job, {"fix": "true"})[0], 1)
    check(job.action_outputs["fixed"] == "false" and ",title=unknown-toolset::" in job.out, "outputs %r" % job.action_outputs)
    check(open(os.path.join(job.ws, "config.toml")).read() == unsafe, "an unsafe fix was made")
    tick = BARE.replace("review = []", "review = []  # ``` in a comment, beside the fix")
    job = case("fix: 'true' with a manifest on a config holding ```: the summary's fence is longer",
               {"config.toml": tick, "kokua.manifest.json": MANIFEST},
               lambda job: run_action(job, {"fix": "true", "manifest": "kokua.manifest.json"})[0], 1)
    check("embedded default" not in job.out, "the manifest input was not used")
    applies(fix_summary_diff(job), tick, tick.replace('["add_mcp_server"]', '["mcp.add_mcp_server"]'))
    check("\n````diff\n" in summary(job), "the summary's fence is not longer than the diff's ```:\n%s" % summary(job))

    job = case("mode: both with fix: 'true': the diff compares the committed config, the fix comes after", {},
               lambda job: run_action(job, {"mode": "both", "fix": "true"})[0], 1,
               history=({"config.toml": FIXED}, {"config.toml": BARE}))
    md = summary(job)
    check("Not compared: this version has errors" in md and md.index("Not compared") < md.index("### kokua-lint --fix"),
          "the diff did not see the committed config, or the fix came first:\n%s" % md)
    check(open(os.path.join(job.ws, "config.toml")).read() == FIXED, "the workspace's config.toml is not the fixed config")

    def dispatch(job):
        git("checkout", "-q", "--detach", cwd=os.path.join(job.dir, "origin"))   # so that pr can be pushed to
        return {}
    body = doc_block("github-action-fix-commit")
    job = case("docs/ci.md github-action-fix-commit: the fix is committed and pushed; the step still fails on the commit it checked", {},
               lambda job: run_workflow(job, body), 1,
               history=({"config.toml": FIXED}, {"config.toml": BARE}), event=dispatch)
    expect_bare(job)
    origin = os.path.join(job.dir, "origin")
    check(git("show", "pr:config.toml", cwd=origin) + "\n" == FIXED, "origin's pr branch does not hold the fixed config")
    check(git("log", "-1", "--format=%s", "pr", cwd=origin) == "kokua-lint --fix", "the pushed commit's message")
    job = case("docs/ci.md github-action-fix-commit on a clean branch: nothing to commit, passes", {},
               lambda job: run_workflow(job, body), 0,
               history=({"config.toml": BARE}, {"config.toml": FIXED}), event=dispatch)
    check(git("log", "-1", "--format=%s", "pr", cwd=os.path.join(job.dir, "origin")) == "head", "a commit was pushed")
    check(not any("commit the fixes" in l for l in job.order), "the commit step ran: %r" % job.order)

    for title, with_ in (("fix: 'true' with mode: diff", {"mode": "diff", "fix": "true"}),
                         ("fix: 'yes'", {"fix": "yes"})):
        job = case("%s is refused before anything is built" % title, {"config.toml": FIXED},
                   lambda job: run_action(job, with_)[0], 2)
        check(built(job) == [] and "::error title=kokua-lint::" in job.out, "built %r" % built(job))

    # ---- the policy tests ------------------------------------------------------------------------

    HOLDS = ('[[expect]]\nname = "adding an MCP server asks the user"\nagent = "assistant"\n'
             'tool = "mcp.add_mcp_server"\ndecision = "confirm"\n')
    FAILS = HOLDS + ('\n[[expect]]\nname = "removing one asks too"\nagent = "assistant"\n'
                     'tool = "mcp.remove_mcp_server"\ndecision = "asks"\n')
    def junit(job, name="kokua-test.xml"):
        import xml.etree.ElementTree as ET
        f = os.path.join(job.ws, name)
        check(os.path.isfile(f), "%s was not written" % name)
        root = ET.parse(f).getroot()
        check(root.tag == "testsuites", "%s: root %r" % (name, root.tag))
        return [(c.get("name"), c.find("failure") is not None) for c in root.iter("testcase")]

    job = case("a kokua.test.toml beside the config, one claim failing: annotated, JUnit written, the step fails",
               {"config.toml": FIXED, "kokua.test.toml": FAILS}, lambda job: run_action(job, {})[0], 1)
    a = annotations(job.out)
    check(any(l.startswith("::error file=kokua.test.toml,line=7,col=1,title=policy test%3A removing one asks too::assistant mcp.remove_mcp_server: run, want asks")
              for l in a), "no annotation at the failing claim: %r" % a)
    check(any(l.startswith("::error file=config.toml,line=5,col=1,title=policy test%3A removing one asks too::") for l in a),
          "no annotation at the config line behind it: %r" % a)
    check(built(job) == ["kokua-compile", "kokua-lint"], "built %r" % built(job))
    check(junit(job) == [("adding an MCP server asks the user (line 1)", False), ("removing one asks too (line 7)", True)], "JUnit %r" % junit(job))
    check(job.action_outputs["failed-claims"] == "1" and job.action_outputs["junit-file"] == "kokua-test.xml" and job.action_outputs["errors"] == "0",
          "outputs %r" % job.action_outputs)
    check("### kokua-compile test config.toml" in summary(job) and "FAIL kokua.test.toml:7: removing one asks too" in summary(job),
          "the job summary lacks the report:\n%s" % summary(job))
    check("kokua-compile test: 1 claim(s) of the policy tests fail" in job.out, "the last step does not say why it fails")

    job = case("a kokua.test.toml that holds: the step passes", {"config.toml": FIXED, "kokua.test.toml": HOLDS},
               lambda job: run_action(job, {})[0], 0)
    check(job.action_outputs["failed-claims"] == "0" and junit(job) == [("adding an MCP server asks the user (line 1)", False)],
          "outputs %r" % job.action_outputs)

    body = doc_block("github-action-tests")
    job = case("docs/ci.md github-action-tests: the tests input names the files; a misspelled selector fails",
               {"deploy/config.toml": FIXED, "tests/claims.toml": HOLDS,
                "tests/delegation.toml": HOLDS.replace('agent = "assistant"', 'agent = "asistant"')},
               lambda job: run_workflow(job, body), 1)
    a = annotations(job.out)
    check(any(l.startswith("::error file=tests/delegation.toml,line=3,col=9,title=policy test%3A adding an MCP server asks the user::") and
              "did you mean" in l.lower() for l in a), "no annotation at the misspelled agent: %r" % a)
    check(job.action_outputs["junit-file"] == "kokua-test.xml", "outputs %r" % job.action_outputs)

    job = case("a test file with a mistake: the policy-test step fails with exit 2",
               {"config.toml": FIXED, "kokua.test.toml": HOLDS + "decison = 1\n"}, lambda job: run_action(job, {})[0], 2)
    check("unknown key 'decison'" in job.out, "the mistake is not reported")

    job = case("no test file beside the config: kokua-compile is not built, no policy tests",
               {"config.toml": FIXED}, lambda job: run_action(job, {})[0], 0)
    check(built(job) == ["kokua-lint"] and job.action_outputs["junit-file"] == "", "built %r, outputs %r" % (built(job), job.action_outputs))

    job = case("a pull request that deletes the kokua.test.toml its base has: the policy-test step fails and says so", {},
               lambda job: run_action(job, {})[0], 1, history=({"config.toml": FIXED, "kokua.test.toml": FAILS}, {"kokua.test.toml": None}))
    a = annotations(job.out)
    check(any(l.startswith("::error file=kokua.test.toml,title=policy test::kokua.test.toml is deleted: the base has these policy tests") for l in a),
          "no annotation for the deleted test file: %r" % a)
    check("kokua-compile test: this change deletes 1 policy test file(s) the base has" in job.out, "the last step does not say why it fails")
    check(built(job) == ["kokua-compile", "kokua-lint"] and job.action_outputs["errors"] == "0", "built %r, outputs %r" % (built(job), job.action_outputs))
    check("kokua.test.toml, which the base has, is deleted" in summary(job), "the job summary does not say so:\n%s" % summary(job))

    job = case("two configs, the second's tests deleted: the step fails for that one", {},
               lambda job: run_action(job, {"config": "a/config.toml b/config.toml"})[0], 1,
               history=({"a/config.toml": FIXED, "b/config.toml": FIXED, "a/kokua.test.toml": HOLDS, "b/kokua.test.toml": HOLDS},
                        {"b/kokua.test.toml": None}))
    a = [l for l in annotations(job.out) if "is deleted" in l]
    check(len(a) == 1 and a[0].startswith("::error file=b/kokua.test.toml,title=policy test::b/kokua.test.toml is deleted"), "annotations %r" % a)
    check(job.action_outputs["failed-claims"] == "0" and junit(job) == [("adding an MCP server asks the user (line 1)", False)],
          "a's tests did not run as before: %r" % job.action_outputs)

    job = case("a pull request that keeps its tests, on a config without any: nothing deleted, kokua-compile not built", {},
               lambda job: run_action(job, {})[0], 0, history=({"config.toml": FIXED}, {"config.toml": WIDE}))
    check(built(job) == ["kokua-lint"] and "is deleted" not in job.out, "built %r" % built(job))

    job = case("the tests input names the files: a deleted file beside the config is not looked for", {},
               lambda job: run_action(job, {"tests": "tests/claims.toml"})[0], 0,
               history=({"config.toml": FIXED, "kokua.test.toml": HOLDS, "tests/claims.toml": HOLDS}, {"kokua.test.toml": None}))
    check("is deleted" not in job.out, "the deletion was looked for with the tests input")

    job = case("tests with mode: diff is refused before anything is built", {"config.toml": FIXED},
               lambda job: run_action(job, {"mode": "diff", "tests": "kokua.test.toml"})[0], 2)
    check(built(job) == [] and "::error title=kokua-lint::tests needs the lint" in job.out, "built %r" % built(job))

    job = case("a tests input with shell syntax is data, not commands", {"config.toml": FIXED},
               lambda job: run_action(job, {"tests": "x.toml;touch${IFS}pwned $(touch pwned2)"})[0], 2)
    check(not any(os.path.exists(os.path.join(job.ws, f)) for f in ("pwned", "pwned2")), "input ran as a command")

    step("PASS: action.yml and docs/ci.md's GitHub workflows, %d cases (%ds)" % (cases, time.time() - START))
except Fail as e:
    print("FAIL: %s" % e, file=sys.stderr)
    sys.exit(1)
EOF
