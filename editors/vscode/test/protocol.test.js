'use strict';
// `urdf-tools lsp` over stdio with the extension's own options (client.js): initialize,
// open a real robot, its diagnostics, the code actions of one, shutdown.
// URDF_TOOLS_LSP_COMMAND: the server's command, a JSON array (default: python3 -m
// urdf_tools_ros.cli.main lsp, from the repository); URDF_TOOLS_SHARED: the shared robots
// (default: ../shared beside the repository). Skips when the robot is not there.
const assert = require('node:assert/strict');
const {spawn} = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const {test} = require('node:test');
const {pathToFileURL} = require('node:url');
const lsp = require('vscode-languageserver-protocol/node');
const {SECTION, clientOptions, serverOptions} = require('../client');

const REPO = path.resolve(__dirname, '..', '..', '..');
const SHARED = process.env.URDF_TOOLS_SHARED || path.join(REPO, '..', 'shared');
const DESCRIPTIONS = path.join(SHARED, 'ros2_descriptions');
const PACKAGE = path.join(DESCRIPTIONS, 'urdf_tutorial');
const FILE = path.join(PACKAGE, 'urdf', '06-flexible.urdf');
const SETTINGS = {
  serverCommand: JSON.parse(process.env.URDF_TOOLS_LSP_COMMAND || 'null')
    || ['python3', '-m', 'urdf_tools_ros.cli.main', 'lsp'],
  packagePath: [DESCRIPTIONS], target: null, debounce: 50,
};

/** The first of the promises to settle, else an error after the seconds. */
function within(seconds, what, ...promises) {
  let timer;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([...promises, late]).finally(() => clearTimeout(timer));
}

test('the server checks a robot with the extension\'s options and offers its quick fixes',
  {skip: !fs.existsSync(FILE) && `${FILE} is not here`}, async () => {
    const server = serverOptions(SETTINGS);
    const options = clientOptions(SETTINGS);
    const child = spawn(server.command, server.args, {cwd: REPO, stdio: 'pipe'});
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const died = exited.then((code) => { throw new Error(`the server exited (${code})`); });
    died.catch(() => {});
    const connection = lsp.createProtocolConnection(
      new lsp.StreamMessageReader(child.stdout), new lsp.StreamMessageWriter(child.stdin));
    const uri = pathToFileURL(FILE).href;
    const diagnosed = new Promise((resolve) => {
      connection.onNotification(lsp.PublishDiagnosticsNotification.type, (params) => {
        if (params.uri === uri && params.diagnostics.length > 0) resolve(params.diagnostics);
      });
    });
    connection.onRequest((method, params) => (method === 'workspace/configuration'
      ? params.items.map((item) => (item.section === SECTION
        ? options.initializationOptions : null))
      : null));
    connection.listen();
    try {
      const folder = {uri: pathToFileURL(PACKAGE).href, name: 'urdf_tutorial'};
      const initialized = await within(60, 'initialize answer', died, connection.sendRequest(
        lsp.InitializeRequest.type, {
          processId: process.pid, rootUri: folder.uri, workspaceFolders: [folder],
          initializationOptions: options.initializationOptions,
          capabilities: {workspace: {configuration: true, workspaceFolders: true}},
        }));
      assert.ok(initialized.capabilities.codeActionProvider, 'no code actions');
      await connection.sendNotification(lsp.InitializedNotification.type, {});
      await connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
        textDocument: {uri, languageId: 'xml', version: 1, text: fs.readFileSync(FILE, 'utf8')},
      });
      const diagnostics = await within(60, 'diagnostics', diagnosed, died);
      for (const item of diagnostics) {
        assert.equal(typeof item.code, 'string');
        assert.equal(item.source, 'urdf-tools');
      }
      const [first] = diagnostics;
      const actions = await within(30, 'code actions', died, connection.sendRequest(
        lsp.CodeActionRequest.type,
        {textDocument: {uri}, range: first.range, context: {diagnostics: [first]}}));
      const suppress = actions.find((action) => action.title === `Suppress ${first.code} here`);
      assert.ok(suppress, JSON.stringify(actions.map((action) => action.title)));
      assert.ok(suppress.edit.changes[uri].length > 0);
      await within(30, 'shutdown answer', died, connection.sendRequest(lsp.ShutdownRequest.type));
      await connection.sendNotification(lsp.ExitNotification.type);
      assert.equal(await within(30, 'exit', exited), 0);
    } catch (error) {
      error.message += `\nserver's stderr (end):\n${stderr.slice(-3000)}`;
      throw error;
    } finally {
      connection.dispose();
      child.kill();
    }
  });
