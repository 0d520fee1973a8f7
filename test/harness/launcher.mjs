#!/usr/bin/env node
// Stands in for the VS Code executable under @vscode/test-electron's runTests: reads the
// --extensionDevelopmentPath / --extensionTestsPath it is given, runs that suite inside a real
// VS Code extension host (code-server + headless Chromium), and exits with the suite's code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { launchBrowser, NOISE, startCodeServer, workbenchUrl } from './codeServer.mjs';

const SUITE_TIMEOUT_MS = 10 * 60_000;

function parseArgs(argv) {
  const options = { workspace: undefined };
  for (const arg of argv) {
    const match = /^--(extensionDevelopmentPath|extensionTestsPath)=(.*)$/.exec(arg);
    if (match) options[match[1]] = resolve(match[2]);
    else if (!arg.startsWith('-') && !options.workspace) options.workspace = resolve(arg);
  }
  if (!options.extensionDevelopmentPath || !options.extensionTestsPath) {
    throw new Error('launcher: expected --extensionDevelopmentPath=… and --extensionTestsPath=… (it is meant to be run by @vscode/test-electron runTests)');
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-questions-host-'));
  const workspace = options.workspace ?? stateDir;
  let server;
  let browser;
  try {
    server = await startCodeServer({ stateDir, workspace, smokeTestDriver: true });
    browser = await launchBrowser();
    const page = await browser.newPage();
    let resolveExit;
    const exitCode = new Promise((r) => (resolveExit = r));
    setTimeout(() => {
      console.error(`launcher: the suite did not finish within ${SUITE_TIMEOUT_MS / 60_000} minutes`);
      resolveExit(1);
    }, SUITE_TIMEOUT_MS).unref();
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      if (NOISE.some((re) => re.test(text))) return;
      (type === 'error' ? process.stderr : process.stdout).write(`${text}\n`);
    });
    await page.goto(workbenchUrl(server, { workspace, ...options }));
    return await exitCode;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
