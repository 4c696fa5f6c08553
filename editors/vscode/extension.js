// The kokua-lint extension: it starts `kokua-lint lsp` for TOML files and
// leaves everything else to the server, which stays silent on files that
// are not Kokua's config (docs/editor.md).
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("kokuaLint");
  const args = ["lsp"];
  const manifest = settings.get("manifest");
  if (manifest) {
    args.push("--manifest", manifest);
  }
  const server = { command: settings.get("path") || "kokua-lint", args };
  client = new LanguageClient("kokua-lint", "kokua-lint", server, {
    documentSelector: [{ scheme: "file", language: "toml" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
