# shellcheck shell=bash
# Shared by the scripts of this folder; source it, do not run it.

# print_machine says what a measurement ran on.
print_machine() {
    echo "== machine"
    echo "date:  $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "cpus:  $(nproc) ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || echo unknown))"
    echo "go:    $(go version)"
    echo "load:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
    echo
}

# python_with_yaml sets py to a python3 that can import yaml, installing
# python3-yaml with apt-get when none can.
python_with_yaml() {
    py=python3
    if ! "$py" -c 'import yaml' 2>/dev/null; then
        echo "==> installing python3-yaml with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq python3 python3-yaml >/dev/null
        # apt's module is for Debian's python3; a python3 of its own (pyenv, venv) may not see it.
        "$py" -c 'import yaml' 2>/dev/null || py=/usr/bin/python3
    fi
}

# share_go_caches keeps Go's module and build caches when a script changes
# HOME or the environment, and leaves GOBIN to the script.
share_go_caches() {
    export GOMODCACHE GOCACHE
    GOMODCACHE="$(go env GOMODCACHE)"
    GOCACHE="$(go env GOCACHE)"
    unset GOBIN
}
