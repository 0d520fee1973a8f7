// `npm start`: builds and packages the extension, installs it into a real VS Code (code-server)
// with a sample workspace and the scripted demo model (test/fixtures/scripted-model), serves it on
// 127.0.0.1 and prints the URL. Ctrl-C stops everything.
//   npm start                   port 8080
//   npm start -- --port 3000    or PORT=3000 npm start
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { installExtension, startCodeServer } from '../test/harness/codeServer.mjs';
import { packageExtension, packageScriptedModel } from './package.mjs';
import { cacheDir, CODE_SERVER_VERSION, provision } from '../test/harness/provision.mjs';

const root = join(import.meta.dirname, '..');
const { scenarios } = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'scripted-model', 'scenarios.json'), 'utf8'));
const DEMO_PROMPT = scenarios.find((s) => s.demoPrompt).demoPrompt;

function parsePort() {
  const flag = process.argv.indexOf('--port');
  const text = flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? '8080');
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`not a port: ${text} (use --port 1-65535)`);
  return port;
}

/** Fails at once, before any slow step, when something already listens on the port. */
function checkPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`port ${port} is in use; try: npm start -- --port ${port + 1}`));
      else reject(error);
    });
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

const started = Date.now();
const elapsed = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * Prints what a step does before it runs and how long it took, so a long step never looks stuck;
 * an asynchronous step also says every 5 s that it is still going.
 */
async function step(label, run) {
  const since = Date.now();
  process.stdout.write(`[start] ${label}…\n`);
  // Steps that take more than a few seconds say they are still going.
  const ticker = setInterval(() => process.stdout.write(`[start]   still going (${elapsed(since)})\n`), 5000);
  try {
    const result = await run();
    process.stdout.write(`[start]   done in ${elapsed(since)}\n`);
    return result;
  } finally {
    clearInterval(ticker);
  }
}

/** Installs the .vsix unless this very file is already installed in the profile. */
async function installOnce(stateDir, vsix, extensionPrefix, label) {
  const marker = join(stateDir, `installed-${extensionPrefix}.sha256`);
  const hash = createHash('sha256').update(readFileSync(vsix)).digest('hex');
  const extensions = join(stateDir, 'extensions');
  const present = existsSync(extensions) && readdirSync(extensions).some((name) => name.startsWith(`${extensionPrefix}-`));
  if (present && existsSync(marker) && readFileSync(marker, 'utf8') === hash) {
    console.log(`[start] ${label} is already installed`);
    return;
  }
  rmSync(marker, { force: true });
  await step(`Installing ${label}`, () => installExtension({ stateDir, vsix }));
  writeFileSync(marker, hash);
}

async function main() {
  const port = parsePort();
  await checkPortFree(port);
  await step('Checking the harness (Node 24, code-server, Chromium; installed once into the cache)', () => provision());
  // npm start keeps a .vsix made from the same sources; npm test always packages afresh.
  const vsix = await step('Packaging the extension (only when its sources changed)', () => packageExtension({ reuse: true }));
  const modelVsix = packageScriptedModel({ reuse: true });

  // The profile (settings, state) persists between starts; the sample workspace starts fresh each
  // time, so edits made during a demo never carry over.
  const stateDir = join(cacheDir, 'start-profile');
  const workspace = join(stateDir, 'workspace');
  rmSync(workspace, { recursive: true, force: true });
  cpSync(join(root, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  await installOnce(stateDir, vsix, 'openoxide.agent-questions', 'the extension');
  await installOnce(stateDir, modelVsix, 'openoxide-tests.agent-questions-scripted-model', 'the scripted demo model');

  const server = await step(`Starting VS Code (code-server ${CODE_SERVER_VERSION})`, () =>
    startCodeServer({ stateDir, workspace, port }).catch((error) => {
      if (/EADDRINUSE/.test(String(error))) throw new Error(`port ${port} is in use; try: npm start -- --port ${port + 1}`);
      throw error;
    }),
  );
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(`\nAgent Questions is running in VS Code (code-server ${CODE_SERVER_VERSION}) after ${elapsed(started)}:\n\n  ${url}\n`);
  // The same words as the README's "Try it".
  console.log('Open it. The Question view sits next to the Chat (in the secondary side bar, above the chat); the Queue is under Agent Questions in the activity bar. Then either:');
  console.log(`  - in the Chat view (Agent mode, model "Scripted"), send: ${DEMO_PROMPT}`);
  console.log('  - or press F1 and run "Agent Questions: Ask a Sample Question".');
  console.log(`The sample workspace was reset to test/fixtures/workspace; settings persist in ${stateDir}.`);
  console.log('Press Ctrl-C to stop.\n');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.process.once('exit', (code) => {
    if (stopping) return;
    console.error(`code-server exited unexpectedly (${code})`);
    process.exit(1);
  });
}

main().catch((error) => {
  console.error(`npm start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
