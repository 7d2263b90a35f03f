// Starts gpu-lsp (the setting gpuir.server.command) on stdio for .mlir files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("gpuir.server");
  const server = { command: config.get("command"), args: config.get("args") };
  client = new LanguageClient(
    "gpu-lsp",
    "gpu-lsp",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "gpuir" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
