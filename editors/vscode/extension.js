// The kokua-lint extension: it starts `kokua-lint lsp` for every file named
// config.toml and every policy test file (*.test.toml), whatever language VS
// Code gives it (stock VS Code has no TOML language, so a file is matched by
// its name, not by a language id), and for every TOML file once a TOML
// extension provides the language. The server
// stays silent on files that are not Kokua's config (docs/editor.md).
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

// The documents the server is attached to.
const documentSelector = [
  { scheme: "file", pattern: "**/config.toml" },
  { scheme: "file", pattern: "**/*.test.toml" },
  { scheme: "file", language: "toml" },
];

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("kokuaLint");
  const args = ["lsp"];
  const manifest = settings.get("manifest");
  if (manifest) {
    args.push("--manifest", manifest);
  }
  const server = { command: settings.get("path") || "kokua-lint", args };
  client = new LanguageClient("kokua-lint", "kokua-lint", server, { documentSelector });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, documentSelector };
