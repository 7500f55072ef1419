// Starts `rulesdsl lsp` for .rules files and for the YAML files that are profiles.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const settings = vscode.workspace.getConfiguration("rulesdsl");
  const [command, ...args] = settings.get("command");
  client = new LanguageClient(
    "rulesdsl",
    "rulesdsl",
    { command, args },
    {
      documentSelector: [
        { scheme: "file", language: "rulesdsl" },
        { scheme: "file", language: "yaml", pattern: settings.get("yamlProfiles") },
      ],
    },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
