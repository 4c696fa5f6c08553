#!/usr/bin/env bash
# Tests `kokua-lint lsp` end to end in a real client: Debian's Neovim (installed with apt-get when
# missing), headless, with the init.lua of docs/editor.md (the block marked `<!-- test: neovim -->`)
# as its whole configuration and a kokua-lint built from this checkout first on PATH. It opens a
# broken config and checks, through Neovim's own LSP client, the five things the server answers:
#
#   - diagnostics: unknown-toolset on 'webb', at its line and column, with its rule's page;
#   - hover: on `available`, the key's text from docs/config.schema.json;
#   - completion: in "webb", the registered toolset 'web' and not 'webb';
#   - code actions: the quick fix `Write "web"`;
#   - definition: from "coder" in delegates_to to the [agents.coder] table.
#
# If apt-get cannot reach a mirror, the script fails, unless KOKUA_SKIP_UNREACHABLE=1 is set, when
# it says so and exits 0 (.ci/run never sets it). Run from anywhere: bash scripts/test-neovim.sh.
# Nothing in this repository is changed.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step() { printf '==> %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

command -v go >/dev/null || fail "go is not on PATH"
if ! command -v nvim >/dev/null; then
    step "installing neovim with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -qq && apt-get install -y -qq neovim >/dev/null; }; then
        if [[ "${KOKUA_SKIP_UNREACHABLE:-}" == 1 ]]; then
            echo "SKIP: apt-get could not install neovim (no mirror reachable); the Neovim test did not run"
            exit 0
        fi
        fail "apt-get could not install neovim"
    fi
fi
step "$(nvim --version | head -1), $(go version)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kokua-neovim.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

step "building kokua-lint"
(cd "$repo_root" && go build -buildvcs=false -o "$tmp/bin/kokua-lint" ./cmd/kokua-lint)
export PATH="$tmp/bin:$PATH"

# Neovim's whole configuration is the documented block: no user config, plugins or shada.
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" XDG_STATE_HOME="$tmp/state" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$XDG_CONFIG_HOME/nvim"
python3 - "$repo_root/docs/editor.md" >"$XDG_CONFIG_HOME/nvim/init.lua" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<!-- test: neovim -->\n```lua\n(.*?)\n```", text, re.S)
if not m:
    sys.exit("docs/editor.md: no lua block after <!-- test: neovim -->")
print(m.group(1))
PY

# The shipped config with one typo: researcher's "web" written "webb".
work="$tmp/project"
mkdir -p "$work"
sed 's/available = \["web", "misc"/available = ["webb", "misc"/' "$repo_root/examples/shipped.config.toml" >"$work/config.toml"
grep -q '"webb"' "$work/config.toml" || fail "the typo was not written into the config"
schema_text="$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["properties"]["agents"]["additionalProperties"]["properties"]["tools"]["properties"]["available"]["description"][:60])' "$repo_root/docs/config.schema.json")"

cat >"$tmp/check.lua" <<'LUA'
-- Runs inside Neovim once config.toml is open; writes one line per check to $RESULT and quits.
local out = {}
local function check(name, ok, detail)
  table.insert(out, (ok and "ok   " or "FAIL ") .. name .. ": " .. tostring(detail))
end
local function finish()
  local f = assert(io.open(os.getenv("RESULT"), "w"))
  f:write(table.concat(out, "\n") .. "\n")
  f:close()
  vim.cmd("qa!")
end
local buf = vim.api.nvim_get_current_buf()
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local function find(pattern, skip)
  for i, l in ipairs(lines) do
    local c = l:find(pattern, 1, true)
    if c then return { line = i - 1, character = c - 1 + (skip or 0) } end
  end
  error("no " .. pattern)
end
local function request(method, params)
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000) or {}
  for _, r in pairs(res) do
    if r.result then return r.result end
  end
end
local doc = { uri = vim.uri_from_bufnr(buf) }

-- Diagnostics: wait for the server's.
vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 100)
local diags = vim.diagnostic.get(buf)
local webb = find('"webb"')
local d = diags[1] or {}
check("diagnostics", #diags == 1 and d.lnum == webb.line and d.col == webb.character
  and (d.message or ""):find("unknown toolset 'webb'", 1, true) ~= nil,
  string.format("%d diagnostic(s); first at %s:%s: %s", #diags, tostring(d.lnum), tostring(d.col), tostring(d.message)))
local lsp = (d.user_data or {}).lsp or {}
check("rule code", lsp.code == "unknown-toolset"
  and ((lsp.codeDescription or {}).href or ""):find("docs/rules/unknown%-toolset%.md$") ~= nil,
  tostring(lsp.code) .. " " .. tostring((lsp.codeDescription or {}).href))

-- Hover on the first available key (the entry agent's table).
local hover = request("textDocument/hover", { textDocument = doc, position = find("available", 2) })
local contents = hover and hover.contents and (hover.contents.value or hover.contents) or ""
check("hover", type(contents) == "string" and contents:find(os.getenv("SCHEMA_TEXT"), 1, true) ~= nil, contents)

-- Completion inside "webb".
local comp = request("textDocument/completion", { textDocument = doc, position = { line = webb.line, character = webb.character + 2 } })
local items = comp and (comp.items or comp) or {}
local labels = {}
for _, it in ipairs(items) do labels[it.label] = true end
check("completion", labels["web"] and labels["fs_write"] and not labels["webb"], #items .. " items")

-- Code actions on the finding.
local actions = request("textDocument/codeAction", { textDocument = doc,
  range = d.user_data and d.user_data.lsp and d.user_data.lsp.range or { start = webb, ["end"] = webb },
  context = { diagnostics = { lsp } } }) or {}
local titles = {}
for _, a in ipairs(actions) do table.insert(titles, a.title) end
check("code action", titles[1] == 'Write "web"', table.concat(titles, " | "))

-- Definition from "coder" in delegates_to.
local defs = request("textDocument/definition", { textDocument = doc, position = find('"coder"', 2) }) or {}
local table_pos = find("[agents.coder]", #"[agents.")
local loc = defs[1] or {}
check("definition", loc.range ~= nil and loc.range.start.line == table_pos.line and loc.range.start.character == table_pos.character,
  vim.inspect(loc.range))
finish()
LUA

step "nvim --headless config.toml"
result="$tmp/result.txt"
( cd "$work" && RESULT="$result" SCHEMA_TEXT="$schema_text" timeout 90 nvim --headless -n config.toml -c "luafile $tmp/check.lua" ) \
    || fail "nvim exited with $? before the checks finished"
[[ -s "$result" ]] || fail "nvim wrote no result"
cat "$result"
if grep -q '^FAIL' "$result"; then
    fail "Neovim's answers are not the expected ones"
fi
[[ "$(grep -c '^ok' "$result")" == 6 ]] || fail "not every check ran"
step "OK: diagnostics, hover, completion, code action and definition in Neovim"
