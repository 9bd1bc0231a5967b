'use strict';
// The VS Code extension: `urdf-tools lsp` through vscode-languageclient, on .urdf and .xacro.
const vscode = require('vscode');
const {LanguageClient} = require('vscode-languageclient/node');
const {SECTION, SERVER_KEYS, WATCHED, clientOptions, serverOptions} = require('./client');

let client;

async function activate(context) {
  const config = vscode.workspace.getConfiguration(SECTION);
  const settings = {serverCommand: config.get('serverCommand')};
  for (const key of SERVER_KEYS) settings[key] = config.get(key);
  const watcher = vscode.workspace.createFileSystemWatcher(WATCHED);
  context.subscriptions.push(watcher);
  client = new LanguageClient(SECTION, 'urdf-tools', serverOptions(settings),
    clientOptions(settings, watcher));
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = {activate, deactivate};
