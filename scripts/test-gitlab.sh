#!/usr/bin/env bash
# Tests the GitLab CI jobs of docs/ci.md (the blocks marked `<!-- test: gitlab -->` and
# `<!-- test: gitlab-test -->`, the policy tests with their JUnit report) without GitLab:
# its `script:` lines run in one bash script under `set -eo pipefail`, as GitLab Runner's bash shell
# runs them, with GOPATH/bin first on PATH as in the golang image, in a temporary folder holding a
# broken or a fixed config.toml. The job must fail on the broken one (naming pending-dead-entry)
# and pass on the fixed one, and leave its `artifacts:` paths in both cases (`when: always`).
#
# The install lines run as written, `git clone` included, with one change: the clone's URL is
# pointed at a local repository holding this working tree, committed and tagged with the version
# the clone's --branch pins (that tag may not be published yet). The image itself is not pulled:
# its tag is only checked against the Go version in go.mod.
#
# Needs Go and python3 with PyYAML (python3-yaml is installed with apt-get if missing).
# Run from anywhere: bash scripts/test-gitlab.sh. Nothing in this repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v go >/dev/null || { echo "FAIL: go is not on PATH" >&2; exit 1; }
# shellcheck source=scripts/lib.sh
source "$repo_root/scripts/lib.sh"
python_with_yaml

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-gitlab.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
share_go_caches

# The repository the job clones: this working tree, committed and tagged with the version the
# job's clone pins (internal/version's TestDocsPinTheRelease holds it to CHANGELOG.md).
pin="$(sed -n -E 's/^ *- git clone .*--branch ([^ ]+) .*kokua-policy.*/\1/p' "$repo_root/docs/ci.md" | head -1)"
[[ -n "$pin" ]] || { echo "FAIL: docs/ci.md has no git clone --branch of kokua-policy" >&2; exit 1; }
export GIT_CONFIG_GLOBAL="$tmp/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "kokua-policy test"
git config --global user.email "test@kokua-policy.invalid"
git config --global init.defaultBranch main
git init -q "$tmp/upstream"
(cd "$repo_root" && git ls-files -z -c -o --exclude-standard | while IFS= read -r -d '' f; do
    [[ -f "$f" ]] && printf '%s\0' "$f"
done | tar --null -T - -cf -) | tar -C "$tmp/upstream" -xf -
git -C "$tmp/upstream" add -A
git -C "$tmp/upstream" commit -q -m "working tree of $repo_root"
git -C "$tmp/upstream" tag "$pin"

"$py" - "$repo_root" "$tmp" "$pin" <<'EOF'
import json, os, re, subprocess, sys, time
import yaml

REPO, TMP, PIN = sys.argv[1:]
START = time.time()
URL = "https://github.com/kokua-policy/kokua-policy.git"
LOCAL = "file://" + os.path.join(TMP, "upstream")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

def step(msg): print("==> " + msg, flush=True)
class Fail(Exception): pass
def check(ok, msg):
    if not ok: raise Fail(msg)

def doc_block(name):
    lines = open(os.path.join(REPO, "docs/ci.md"), encoding="utf-8").read().split("\n")
    marker = "<!-- test: %s -->" % name
    check(lines.count(marker) == 1, "docs/ci.md: want exactly one line %r" % marker)
    i = lines.index(marker) + 1
    while i < len(lines) and not lines[i].strip(): i += 1
    check(i < len(lines) and lines[i].startswith("```"), "docs/ci.md: no block after %r" % marker)
    return "\n".join(lines[i + 1:lines.index("```", i + 1)]) + "\n"

def config(tool):
    return ("# assistant loads mcp on demand, and asks before adding a server.\n"
            '[assistant]\nagent = "assistant"\n\n[assistant.tools]\nconfirm = ["mcp.%s"]\n'
            'review = []\n\n[agents.assistant]\ndescription = "The assistant the user talks to."\n\n'
            '[agents.assistant.tools]\navailable = ["memory", "mcp", "time"]\n'
            'resident = ["memory", "time"]\n' % tool)

try:
    ci = yaml.safe_load(doc_block("gitlab"))
    (name, job), = ci.items()
    step("docs/ci.md's GitLab job %r" % name)
    go_line = re.search(r"^go (\d+\.\d+)", open(os.path.join(REPO, "go.mod")).read(), re.M).group(1)
    check(job.get("image") == "golang:" + go_line, "image %r, want golang:%s as in go.mod" % (job.get("image"), go_line))
    check(set(job) <= {"image", "script", "artifacts"}, "keys not simulated: %s" % sorted(set(job) - {"image", "script", "artifacts"}))
    lines = job["script"]
    clones = [l for l in lines if l.startswith("git clone ") and URL in l]
    check(len(clones) == 1 and "--branch %s " % PIN in clones[0], "the script has no git clone of %s at %s" % (URL, PIN))
    script = "set -eo pipefail\n" + "\n".join(l.replace(URL, LOCAL) for l in lines) + "\n"
    artifacts = job.get("artifacts", {})
    check(artifacts.get("when") == "always", "artifacts are not kept when the job fails")

    for n, (kind, src, want) in enumerate((("broken", config("add_mcp_servr"), 1),
                                           ("fixed", config("add_mcp_server"), 0)), 1):
        step("case %d: %s config" % (n, kind))
        d = os.path.join(TMP, "case%d" % n)
        build = os.path.join(d, "build")
        os.makedirs(build)
        open(os.path.join(build, "config.toml"), "w").write(src)
        open(os.path.join(d, "script.sh"), "w").write(script)
        gopath = os.path.join(d, "gopath")
        inherited = [p for p in os.environ["PATH"].split(os.pathsep)
                     if p and not os.path.exists(os.path.join(p, "kokua-lint"))]
        env = dict(os.environ, CI="true", GITLAB_CI="true", CI_PROJECT_DIR=build, GOPATH=gopath,
                   PATH=os.pathsep.join([os.path.join(gopath, "bin")] + inherited), KOKUA_TEST_REPO=REPO)
        p = subprocess.run(["bash", os.path.join(d, "script.sh")], cwd=build, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in p.stdout.rstrip("\n").split("\n"):
            print("    | " + line)
        print("  - job exit %d" % p.returncode)
        check(p.returncode == want, "%s config: exit %d, want %d" % (kind, p.returncode, want))
        plain = ANSI.sub("", p.stdout)
        if want:
            check(plain != p.stdout, "--color always printed no colour")
            check("config.toml:6:12: error:" in plain and "[pending-dead-entry]" in plain
                  and "help: write 'mcp.add_mcp_server'" in plain, "the finding is not in the log")
        else:
            check("error" not in plain, "the clean run printed an error")
        for path in artifacts.get("paths", []):
            f = os.path.join(build, path)
            check(os.path.isfile(f), "artifact %s was not written" % path)
            if path.endswith(".sarif"):
                log = json.load(open(f))
                check(log.get("version") == "2.1.0", "%s: version %r" % (path, log.get("version")))
                results = [r.get("ruleId") for run in log["runs"] for r in run.get("results", [])]
                check(results == (["pending-dead-entry"] if want else []), "%s: results %r" % (path, results))
            print("  - artifact %s kept" % path)

    # The policy-test job: its JUnit report is published whether the job passes or fails.
    ci = yaml.safe_load(doc_block("gitlab-test"))
    (name, job), = ci.items()
    step("docs/ci.md's GitLab job %r" % name)
    check(job.get("image") == "golang:" + go_line, "image %r, want golang:%s as in go.mod" % (job.get("image"), go_line))
    check(set(job) <= {"image", "script", "artifacts"}, "keys not simulated: %s" % sorted(set(job) - {"image", "script", "artifacts"}))
    artifacts = job.get("artifacts", {})
    check(artifacts.get("when") == "always", "artifacts are not kept when the job fails")
    report = artifacts.get("reports", {}).get("junit")
    check(report, "the job publishes no JUnit report")
    script = "set -eo pipefail\n" + "\n".join(l.replace(URL, LOCAL) for l in job["script"]) + "\n"
    holds = ('[[expect]]\nname = "adding an MCP server asks the user"\nagent = "assistant"\n'
             'tool = "mcp.add_mcp_server"\ndecision = "confirm"\n')
    fails = holds + ('\n[[expect]]\nname = "removing one asks too"\nagent = "assistant"\n'
                     'tool = "mcp.remove_mcp_server"\ndecision = "asks"\n')
    import xml.etree.ElementTree as ET
    for n, (kind, tests, want, failing) in enumerate((("a failing claim", fails, 1, ["removing one asks too (line 7)"]),
                                                      ("claims that hold", holds, 0, []),
                                                      ("a test file with a mistake", holds + "decison = 1\n", 2, None)), 3):
        step("case %d: %s" % (n, kind))
        d = os.path.join(TMP, "case%d" % n)
        build = os.path.join(d, "build")
        os.makedirs(build)
        open(os.path.join(build, "config.toml"), "w").write(config("add_mcp_server"))
        open(os.path.join(build, "kokua.test.toml"), "w").write(tests)
        open(os.path.join(d, "script.sh"), "w").write(script)
        gopath = os.path.join(d, "gopath")
        inherited = [p for p in os.environ["PATH"].split(os.pathsep)
                     if p and not os.path.exists(os.path.join(p, "kokua-compile"))]
        env = dict(os.environ, CI="true", GITLAB_CI="true", CI_PROJECT_DIR=build, GOPATH=gopath,
                   PATH=os.pathsep.join([os.path.join(gopath, "bin")] + inherited))
        p = subprocess.run(["bash", os.path.join(d, "script.sh")], cwd=build, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in p.stdout.rstrip("\n").split("\n"):
            print("    | " + line)
        print("  - job exit %d" % p.returncode)
        check(p.returncode == want, "%s: exit %d, want %d" % (kind, p.returncode, want))
        f = os.path.join(build, report)
        check(os.path.isfile(f), "the JUnit report %s was not written" % report)
        if failing is None:
            check("unknown key 'decison'" in p.stdout, "the mistake is not in the log")
            continue
        root = ET.parse(f).getroot()
        got = [c.get("name") for c in root.iter("testcase") if c.find("failure") is not None]
        check(root.tag == "testsuites" and got == failing, "%s: failing test cases %r, want %r" % (report, got, failing))
        if failing:
            check("FAIL kokua.test.toml:7: removing one asks too" in p.stdout, "the log does not explain the failure")
        print("  - JUnit report %s: %d failing test case(s)" % (report, len(got)))
    step("PASS: docs/ci.md's GitLab job (%ds)" % (time.time() - START))
except Fail as e:
    print("FAIL: %s" % e, file=sys.stderr)
    sys.exit(1)
EOF
