#!/usr/bin/env bash
# Tests action.yml and the GitHub Actions workflows of docs/ci.md without GitHub: a small runner in
# Python reads the YAML and runs each composite step's `run:` script with bash, as the runner does
# (`bash --noprofile --norc -eo pipefail` for `shell: bash`, `bash -e` for a workflow step without
# one), with the step's `env:`, `${{ inputs.X }}` replaced by the inputs a workflow passes, and
# GITHUB_PATH, RUNNER_TEMP and GITHUB_WORKSPACE as the runner provides them. Each case runs in a
# temporary workspace holding a broken or a fixed config.toml.
#
# The inputs come from the `with:` of the workflows in docs/ci.md (blocks marked
# `<!-- test: github-action -->` and `<!-- test: github-action-sarif -->`), plus cases of its own
# for `manifest`, `fail-on`, several configs, a missing file and a hostile input. The workflow
# without the action (`<!-- test: github-plain -->`) has its `run:` steps run the same way.
#
# NOT TESTED AS WRITTEN: `go install github.com/kokua-policy/kokua-policy/cmd/kokua-lint@v0.1.0`.
# That version is not published, so the runner replaces that one command (and checks that it is
# there, with the version the inputs give) by `go install ./cmd/kokua-lint` from this checkout's
# working tree, into the same GOBIN. `uses:` steps cannot run here: actions/checkout and
# actions/setup-go are skipped (the workspace is ready, Go is on PATH), and
# github/codeql-action/upload-sarif is replaced by a check that its sarif_file is SARIF 2.1.0.
#
# Needs Go and python3 with PyYAML (python3-yaml is installed with apt-get if missing).
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

"$py" - "$repo_root" "$tmp" <<'EOF'
import json, os, re, shutil, subprocess, sys, time
import yaml

REPO, TMP = sys.argv[1:]
START = time.time()
MODULE = "github.com/kokua-policy/kokua-policy/cmd/kokua-lint"
# The install commands as action.yml and docs/ci.md write them, and what replaces them.
ACTION_INSTALL = 'go install "%s@$KOKUA_LINT_VERSION"' % MODULE
PLAIN_INSTALL = re.compile(r"go install %s@(\S+)" % re.escape(MODULE))
LOCAL_INSTALL = 'go -C "$KOKUA_TEST_REPO" install -buildvcs=false ./cmd/kokua-lint'

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

GO_VERSION = re.search(r"^go (\d+\.\d+)", open(os.path.join(REPO, "go.mod")).read(), re.M).group(1)
ACTION = yaml.safe_load(open(os.path.join(REPO, "action.yml"), encoding="utf-8"))
check(ACTION["runs"]["using"] == "composite", "action.yml: not a composite action")

def action_inputs(with_):
    """The inputs the runner gives the action: its defaults, overridden by with_ (as strings)."""
    declared = ACTION.get("inputs", {})
    unknown = set(with_) - set(declared)
    check(not unknown, "inputs action.yml does not declare: %s" % sorted(unknown))
    def text(v): return ("true" if v else "false") if isinstance(v, bool) else str(v)
    values = {k: text(v.get("default", "")) for k, v in declared.items()}
    values.update({k: text(v) for k, v in with_.items()})
    return values

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
def expand(text, inputs):
    """Replaces ${{ inputs.X }}; any other expression is an error of the test."""
    def one(m):
        ref = re.fullmatch(r"inputs\.([A-Za-z0-9_-]+)", m.group(1))
        check(ref and ref.group(1) in inputs, "unsupported expression %r" % m.group(0))
        return inputs[ref.group(1)]
    return EXPR.sub(one, str(text))

def condition(cond, inputs):
    """Evaluates an `if:` of the forms the action uses: inputs.X == 'v' or inputs.X != 'v'."""
    if cond is None: return True
    m = re.fullmatch(r"(?:\$\{\{)?\s*inputs\.([A-Za-z0-9_-]+)\s*(==|!=)\s*'([^']*)'\s*(?:\}\})?",
                     str(cond).strip())
    check(m and m.group(1) in inputs, "unsupported if: %r" % cond)
    return (inputs[m.group(1)] == m.group(3)) == (m.group(2) == "==")

class Job:
    """One job's runner state: a workspace, RUNNER_TEMP, GITHUB_PATH and the output so far."""
    def __init__(self, name, files):
        self.dir = os.path.join(TMP, name)
        self.ws = os.path.join(self.dir, "workspace")
        os.makedirs(self.ws)
        os.makedirs(os.path.join(self.dir, "runner-temp"))
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(self.ws, path)), exist_ok=True)
            open(os.path.join(self.ws, path), "w", encoding="utf-8").write(text)
        # GOPATH is the job's own (GOMODCACHE stays shared), so a plain `go install` lands in
        # gopath/bin, which only a setup-go step puts on PATH. No kokua-lint from the caller's PATH.
        self.gopath = os.path.join(self.dir, "gopath")
        self.setup_go = []
        self.paths = []
        self.out = ""
        self.installs = []   # the versions an install command asked for
        self.uploads = []    # the SARIF files "uploaded"
        self.n = 0

    def env(self, extra):
        env = dict(os.environ, CI="true", GITHUB_ACTIONS="true", GITHUB_WORKSPACE=self.ws,
                   RUNNER_TEMP=os.path.join(self.dir, "runner-temp"), GOPATH=self.gopath,
                   KOKUA_TEST_REPO=REPO)
        for name in ("GITHUB_PATH", "GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"):
            env[name] = os.path.join(self.dir, name.lower())
            open(env[name], "a").close()
        inherited = [d for d in os.environ["PATH"].split(os.pathsep)
                     if d and not os.path.exists(os.path.join(d, "kokua-lint"))]
        env["PATH"] = os.pathsep.join(self.paths + self.setup_go + inherited)
        env.update(extra)
        return env

    def run(self, label, script, shell, env):
        """Runs one `run:` script; returns its exit status."""
        script, n = script.replace(ACTION_INSTALL, LOCAL_INSTALL), script.count(ACTION_INSTALL)
        if n:
            self.installs.append(env.get("KOKUA_LINT_VERSION"))
        for m in PLAIN_INSTALL.finditer(script):
            self.installs.append(m.group(1))
        script = PLAIN_INSTALL.sub(lambda m: LOCAL_INSTALL, script)
        self.n += 1
        path = os.path.join(self.dir, "step%d.sh" % self.n)
        open(path, "w").write(script)
        argv = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", path],
                None: ["bash", "-e", path]}[shell]
        p = subprocess.run(argv, cwd=self.ws, env=self.env(env), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print("  - %s: exit %d" % (label, p.returncode))
        if p.stdout: show(p.stdout)
        self.out += p.stdout
        # The runner prepends GITHUB_PATH's lines to PATH for the steps after.
        lines = [l for l in open(os.path.join(self.dir, "github_path")).read().split("\n") if l]
        self.paths = list(reversed(lines))
        return p.returncode

    def uses(self, label, ref, with_):
        """The `uses:` steps that cannot run here; returns an exit status."""
        name = ref.split("@")[0]
        if name == "actions/checkout":
            print("  - %s: %s not run: the workspace is ready" % (label, ref))
            return 0
        if name == "actions/setup-go":
            check(with_.get("go-version") == GO_VERSION,
                  "%s: go-version %r, want %r as in go.mod" % (label, with_.get("go-version"), GO_VERSION))
            print("  - %s: %s not run: Go is on PATH; $(go env GOPATH)/bin added to PATH, as it does"
                  % (label, ref))
            self.setup_go = [os.path.join(self.gopath, "bin")]
            return 0
        if name == "github/codeql-action/upload-sarif":
            f = os.path.join(self.ws, with_.get("sarif_file", "results.sarif"))
            check(os.path.isfile(f), "%s: no %s to upload" % (label, with_.get("sarif_file")))
            log = json.load(open(f))
            check(log.get("version") == "2.1.0", "%s: SARIF version %r" % (label, log.get("version")))
            n = sum(len(r.get("results", [])) for r in log["runs"])
            print("  - %s: %s not run; %s is SARIF 2.1.0 with %d result(s), category %r" %
                  (label, ref, with_["sarif_file"], n, with_.get("category")))
            self.uploads.append(with_["sarif_file"])
            return 0
        raise Fail("%s: cannot run uses: %s here" % (label, ref))

def run_action(job, with_):
    """The composite action's steps, with the inputs with_ gives; returns an exit status."""
    inputs = action_inputs(with_)
    for s in ACTION["runs"]["steps"]:
        label = "action step %r" % s.get("name", s.get("uses"))
        if not condition(s.get("if"), inputs):
            print("  - %s: skipped (if: %s)" % (label, s["if"]))
            continue
        if "uses" in s:
            status = job.uses(label, s["uses"], {k: expand(v, inputs) for k, v in s.get("with", {}).items()})
        else:
            check(s.get("shell") == "bash", "%s: shell %r" % (label, s.get("shell")))
            env = {k: expand(v, inputs) for k, v in s.get("env", {}).items()}
            status = job.run(label, expand(s["run"], inputs), "bash", env)
        if status:
            return status   # the steps after a failure do not run (none has if: always())
    return 0

def run_workflow(job, text):
    """The single job of a workflow from docs/ci.md; the action where it is used."""
    wf = yaml.safe_load(text)
    (name, spec), = wf["jobs"].items()
    for i, s in enumerate(spec["steps"], 1):
        label = "workflow step %d %r" % (i, s.get("name", s.get("uses", s.get("run"))))
        check("if" not in s and "env" not in s, "%s: if:/env: not simulated" % label)
        if s.get("uses", "").startswith("kokua-policy/kokua-policy@"):
            check(s["uses"] == "kokua-policy/kokua-policy@v0.1.0", "%s: %s" % (label, s["uses"]))
            status = run_action(job, s.get("with", {}))
        elif "uses" in s:
            status = job.uses(label, s["uses"], s.get("with", {}))
        else:
            check("${{" not in s["run"], "%s: expressions not simulated" % label)
            status = job.run(label, s["run"], s.get("shell"), {})
        if status:
            return status
    return 0

# ---- the configs -------------------------------------------------------------------------------

def config(tool, extra=""):
    return ("# assistant loads mcp on demand, and asks before adding a server.\n"
            '[assistant]\nagent = "assistant"\n\n[assistant.tools]\nconfirm = ["mcp.%s"]\n'
            'review = []\n%s\n[agents.assistant]\ndescription = "The assistant the user talks to."\n\n'
            '[agents.assistant.tools]\navailable = ["memory", "mcp", "time"]\n'
            'resident = ["memory", "time"]\n' % (tool, extra))
BROKEN, FIXED = config("add_mcp_servr"), config("add_mcp_server")
WARNING = config("add_mcp_server", "# kokua-lint: ignore[shadowed-tool] nothing is shadowed here any more")
MANIFEST = open(os.path.join(REPO, "config/default.manifest.json"), encoding="utf-8").read()
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
def case(title, files, runner, want_status):
    global cases
    cases += 1
    step("case %d: %s" % (cases, title))
    job = Job("case%d" % cases, files)
    status = runner(job)
    check(status == want_status, "%s: exit %d, want %d" % (title, status, want_status))
    return job

def expect_broken(job):
    a = annotations(job.out)
    check(len(a) == 1 and a[0].startswith(ANNOTATION), "want one annotation starting %r, got %r" % (ANNOTATION, a))
    check(a[0].endswith("%0Ahelp: write 'mcp.add_mcp_server'"), "no help: in %r" % a[0])
def expect_clean(job):
    check(not annotations(job.out), "annotations on a clean config: %r" % annotations(job.out))

try:
    inputs = ACTION["inputs"]
    check(inputs["version"]["default"] == "v0.1.0", "the version default is not v0.1.0")
    doc = open(os.path.join(REPO, "docs/ci.md"), encoding="utf-8").read()
    check("v0.1.0" in doc, "docs/ci.md does not name v0.1.0")

    for block in ("github-action", "github-action-sarif", "github-plain"):
        text = doc_block(block)
        sarif = "sarif" in text
        for broken in (True, False):
            job = case("docs/ci.md %s, %s config" % (block, "broken" if broken else "fixed"),
                       {"config.toml": BROKEN if broken else FIXED},
                       lambda job: run_workflow(job, text), 1 if broken else 0)
            check(job.installs == ["v0.1.0"], "installs %r, want one of v0.1.0" % job.installs)
            where = "runner-temp/kokua-lint/bin" if "kokua-policy/kokua-policy@" in text else "gopath/bin"
            check(os.listdir(job.dir + "/gopath/bin" if where == "gopath/bin" else job.dir + "/runner-temp/kokua-lint/bin")
                  == ["kokua-lint"], "kokua-lint was not installed into %s" % where)
            expect_broken(job) if broken else expect_clean(job)
            if sarif:
                results = sarif_results(job)
                want = [("pending-dead-entry", "error")] if broken else []
                check(results == want, "SARIF results %r, want %r" % (results, want))
                check(job.uploads == ["kokua-lint.sarif"], "uploads %r" % job.uploads)
            else:
                check(not os.path.exists(os.path.join(job.ws, "kokua-lint.sarif")), "SARIF written unasked")
                check(not job.uploads, "uploads %r" % job.uploads)

    two = {"a/config.toml": FIXED, "b/config.toml": WARNING, "kokua.manifest.json": MANIFEST}
    for fail_on, configs, want in (("warning", "a/config.toml b/config.toml", 1),
                                   ("error", "a/config.toml\nb/config.toml\n", 0)):
        with_ = {"config": configs, "manifest": "kokua.manifest.json", "fail-on": fail_on}
        job = case("configs %r, a manifest, a warning, fail-on: %s" % (configs, fail_on), two,
                   lambda job: run_action(job, with_), want)
        a = annotations(job.out)
        check(len(a) == 1 and a[0].startswith("::warning file=b/config.toml,line=8,col=1,")
              and ",title=suppression-unused::" in a[0], "want one suppression-unused warning, got %r" % a)
        check("embedded default" not in job.out, "the manifest input was not used")

    job = case("sarif: 'true' and a missing config: the SARIF step fails (exit 2)", {"config.toml": FIXED},
               lambda job: run_action(job, {"config": "missing.toml", "sarif": True}), 2)
    check("missing.toml" in job.out and not job.uploads, "want a message naming missing.toml, no upload")

    job = case("a config input with shell syntax is data, not commands", {"config.toml": FIXED},
               lambda job: run_action(job, {"config": "config.toml;touch${IFS}pwned $(touch pwned2)"}), 2)
    check(not any(os.path.exists(os.path.join(job.ws, f)) for f in ("pwned", "pwned2")), "input ran as a command")

    step("PASS: action.yml and docs/ci.md's GitHub workflows, %d cases (%ds)" % (cases, time.time() - START))
except Fail as e:
    print("FAIL: %s" % e, file=sys.stderr)
    sys.exit(1)
EOF
