'use strict';
// client.js: what the extension sends the server, from the settings.
const assert = require('node:assert/strict');
const {test} = require('node:test');
const {clientOptions, serverOptions} = require('../client');

test('the server gets its settings that are set, not the extension\'s own', () => {
  const options = clientOptions({
    packagePath: ['/ws/src'], entries: [], target: null, select: undefined, ignore: ['mesh-'],
    debounce: 300, serverCommand: ['urdf-tools', 'lsp'], unknown: 1,
  });
  assert.deepEqual(options.initializationOptions,
    {packagePath: ['/ws/src'], entries: [], ignore: ['mesh-'], debounce: 300});
  assert.equal(options.synchronize.configurationSection, 'urdf-tools');
  assert.deepEqual(options.documentSelector.map((selector) => selector.pattern),
    ['**/*.urdf', '**/*.xacro']);
});

test('the server starts with serverCommand, else urdf-tools lsp', () => {
  assert.deepEqual(serverOptions({}), {command: 'urdf-tools', args: ['lsp']});
  assert.deepEqual(serverOptions({serverCommand: []}), {command: 'urdf-tools', args: ['lsp']});
  assert.deepEqual(serverOptions({serverCommand: ['/venv/bin/python', '-m', 'm', 'lsp']}),
    {command: '/venv/bin/python', args: ['-m', 'm', 'lsp']});
});
