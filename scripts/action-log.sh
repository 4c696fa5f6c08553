# shellcheck shell=bash
# Sourced by the GitHub Action's steps (action.yml) and scripts (action-diff.sh, action-report.sh):
# writes output that carries text from a config (a report, findings, a diff of fixes) to the
# step's log so that the runner acts on no workflow command in it. GitHub's runner reads every line
# of a step's output for commands: a line that starts with "::" once its leading white space is
# trimmed, or holds "##[" anywhere; a pull request could otherwise write "::add-mask::high" or
# "::stop-commands::x" into a reviewer's instructions, hide words of the log or silence the step's
# own annotations. So the output is printed between "::stop-commands::TOKEN" and "::TOKEN::"
# (GitHub's documented way to print untrusted text), with a TOKEN made for this run from
# /dev/urandom, which no config can know, and so cannot end the region early.
# Annotations the commands write on purpose (--format github) are printed as they are: each is one
# line, its text escaped by the command.

kokua_log_token="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
if [[ ! "$kokua_log_token" =~ ^[0-9a-f]{32}$ ]]; then
    echo "kokua-policy: cannot read 16 random bytes from /dev/urandom for the log's stop-commands token" >&2
    exit 3
fi

# log_inert FILE...: writes each FILE that is not empty to standard output, with the runner's
# workflow commands stopped; a last line without its line feed gets one, so that "::TOKEN::" is a
# line of its own and commands resume.
log_inert() {
    local f
    for f in "$@"; do
        if [[ -s "$f" ]]; then
            echo "::stop-commands::$kokua_log_token"
            cat -- "$f"
            [[ -z "$(tail -c 1 -- "$f")" ]] || echo
            echo "::$kokua_log_token::"
        fi
    done
}
