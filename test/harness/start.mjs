// `npm start`: builds and packages the extension, installs it into a real VS Code (code-server)
// with a sample workspace and the scripted demo model (test/fixtures/scripted-model), serves it on
// 127.0.0.1 and prints the URL. Ctrl-C stops everything.
//   npm start                   port 8080
//   npm start -- --port 3000    or PORT=3000 npm start
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installExtension, startCodeServer } from './codeServer.mjs';
import { packageExtension, packageScriptedModel } from './package.mjs';
import { cacheDir, provision } from './provision.mjs';

const root = join(import.meta.dirname, '..', '..');
const { scenarios } = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'scripted-model', 'scenarios.json'), 'utf8'));
const DEMO_PROMPT = scenarios.find((s) => s.demoPrompt).demoPrompt;

function parsePort() {
  const flag = process.argv.indexOf('--port');
  const text = flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? '8080');
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`not a port: ${text} (use --port 1-65535)`);
  return port;
}

async function main() {
  const started = Date.now();
  const port = parsePort();
  provision();
  const vsix = packageExtension();

  // The profile and the sample workspace persist between starts, so settings and edits survive.
  const stateDir = join(cacheDir, 'start-profile');
  const workspace = join(stateDir, 'workspace');
  if (!existsSync(workspace)) cpSync(join(root, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  installExtension({ stateDir, vsix });
  installExtension({ stateDir, vsix: packageScriptedModel() });

  const server = await startCodeServer({ stateDir, workspace, port }).catch((error) => {
    if (/EADDRINUSE/.test(String(error))) throw new Error(`port ${port} is in use; try: npm start -- --port ${port + 1}`);
    throw error;
  });
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log(`\nAgent Questions is running in VS Code ${'(code-server 4.139.1)'} after ${((Date.now() - started) / 1000).toFixed(1)} s:\n\n  ${url}\n`);
  console.log('Open it and click "Agent Questions" in the activity bar. Then either:');
  console.log(`  - in the Chat view (Agent mode, model "Scripted"), send: ${DEMO_PROMPT}`);
  console.log('  - or press F1 and run "Agent Questions: Ask a Sample Question".');
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
