'use strict';
// The extension's options for the language client, from the `urdf-tools` settings. Plain
// Node.js (no `vscode`), so the protocol test uses the very options the extension does.

/** The settings section: initializationOptions and workspace/configuration `urdf-tools`. */
const SECTION = 'urdf-tools';
/** The keys the server reads (its settings schema, docs/editors.md). */
const SERVER_KEYS = ['packagePath', 'entries', 'target', 'select', 'ignore', 'debounce'];
/** The extension's own key: the command that starts the server. */
const DEFAULT_COMMAND = ['urdf-tools', 'lsp'];
/** The files the server checks, whatever language the editor gives them. */
const DOCUMENT_SELECTOR = [
  {scheme: 'file', pattern: '**/*.urdf'},
  {scheme: 'file', pattern: '**/*.xacro'},
];
/** The files whose changes the server is told of: descriptions, package.xml, configuration. */
const WATCHED = '**/*.{urdf,xacro,xml,toml}';

/**
 * The server's settings object: the server's keys that are set (null and undefined left out).
 * @param {Object<string, *>} settings the `urdf-tools` settings by key
 */
function initializationOptions(settings) {
  const options = {};
  for (const key of SERVER_KEYS) {
    if (settings[key] !== undefined && settings[key] !== null) options[key] = settings[key];
  }
  return options;
}

/**
 * How to start the server: `serverCommand` (default `urdf-tools lsp`) on stdio.
 * @param {Object<string, *>} settings the `urdf-tools` settings by key
 */
function serverOptions(settings) {
  const command = settings.serverCommand && settings.serverCommand.length
    ? settings.serverCommand : DEFAULT_COMMAND;
  return {command: command[0], args: command.slice(1)};
}

/**
 * The language client's options.
 * @param {Object<string, *>} settings the `urdf-tools` settings by key
 * @param {*} fileEvents the editor's watcher of {@link WATCHED} (none in a test)
 */
function clientOptions(settings, fileEvents) {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    synchronize: {configurationSection: SECTION, fileEvents},
    initializationOptions: initializationOptions(settings),
  };
}

module.exports = {SECTION, SERVER_KEYS, DEFAULT_COMMAND, DOCUMENT_SELECTOR, WATCHED,
  initializationOptions, serverOptions, clientOptions};
