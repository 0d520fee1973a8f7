import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { quietFor, until } from '../harness/deadline';
import { button, invoke, toolResult, typeIntoField, waitForRequest } from './panelHelpers';
import { openAgentQuestionsView, RESULTS, useWorkbench, type Workbench } from './workbench';

/** Before looking for the canary in the DOM: time for any attribute reflection of the typed value. */
const REFLECTION_MS = 500;
/** Before looking for the canary in the server's files: time for logs and state to be written. */
const WRITES_MS = 1500;

const secretRequest = (envVar: string) => ({ questions: [{ id: 'key', header: 'API key', question: `Your key for ${envVar}?`, kind: 'secret', envVar }] });

const storedHere = async (workbench: Workbench) => (await workbench.driver<{ value: unknown }>('command', { id: 'agentQuestions.manageSecrets', args: [{ list: true }] })).value;

/** Types a value into the masked field of the request shown now and submits it, for this workspace or all. */
async function answerSecret(workbench: Workbench, panel: Frame, envVar: string, value: string, allWorkspaces: boolean): Promise<void> {
  const call = await invoke(workbench, secretRequest(envVar));
  await waitForRequest(panel, `Your key for ${envVar}?`);
  const everywhere = panel.locator('.secret-all-workspaces');
  assert.equal(await everywhere.getAttribute('aria-checked'), 'false', 'off by default');
  await panel.locator('.secret-field').click();
  await workbench.page.keyboard.type(value);
  if (allWorkspaces) {
    // Keyboard only: Tab passes Show, then reaches the checkbox; Space checks it.
    await workbench.page.keyboard.press('Tab');
    await workbench.page.keyboard.press('Tab');
    assert.equal(await everywhere.evaluate((e) => e === document.activeElement), true, 'the checkbox is reachable with Tab');
    await workbench.page.keyboard.press('Space');
    await panel.locator('.secret-all-workspaces[aria-checked="true"]').waitFor();
    await workbench.screenshot('secret-all-workspaces');
  }
  await button(panel, 'submit').click();
  assert.match((await toolResult(workbench, call)).line, new RegExp(`stored in \\$${envVar}`));
}

/** Whether the workbench's browser storage (its IndexedDB databases: global state, secrets) holds `needle` in a key or a value. */
function browserStorageMentions(page: Page, needle: string): Promise<boolean> {
  return page.evaluate(async (needle) => {
    const request = <T>(r: IDBRequest<T>) => new Promise<T>((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      try {
        for (const store of db.objectStoreNames) {
          const tx = db.transaction(store, 'readonly').objectStore(store);
          const [keys, values] = await Promise.all([request(tx.getAllKeys()), request(tx.getAll())]);
          const text = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? new TextDecoder().decode(v) : JSON.stringify(v));
          if ([...keys, ...values].some((v) => text(v)?.includes(needle))) return true;
        }
      } finally {
        db.close();
      }
    }
    return false;
  }, needle);
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile() && stat.size < 50_000_000 && readFileSync(full).includes(needle)) found.push(full);
    }
  };
  walk(dir);
  return found;
}

suite('Secret answers in the real workbench', () => {
  const ui = useWorkbench();

  test('a canary typed into the masked field appears nowhere: DOM, tool result, history, tree, logs, state, browser storage, test artifacts', async () => {
    const { page, driver } = ui.workbench;
    const canary = `canary-${randomBytes(12).toString('hex')}`;
    const call = await invoke(ui.workbench, secretRequest('AQ_CANARY_TOKEN'));
    await waitForRequest(ui.panel, 'Your key for AQ_CANARY_TOKEN?');
    await ui.panel.locator('.secret-field').click();
    await page.keyboard.type(canary);
    await until('the canary to be typed in', () => ui.panel.locator('.secret-field').evaluate((e, typed) => (e as unknown as { value: string }).value === typed, canary));
    await quietFor(REFLECTION_MS); // let any attribute reflection happen before looking
    const dom = await ui.panel.evaluate((needle) => {
      // The light DOM and every shadow root, as markup: attributes and text, not the input's value property.
      const parts: string[] = [document.documentElement.outerHTML];
      const visit = (root: Document | ShadowRoot) => {
        for (const element of root.querySelectorAll('*')) {
          if (!element.shadowRoot) continue;
          parts.push(element.shadowRoot.innerHTML);
          visit(element.shadowRoot);
        }
      };
      visit(document);
      return parts.join('\n').includes(needle);
    }, canary);
    assert.equal(dom, false, 'no plaintext in DOM attributes or text while masked');
    await ui.workbench.screenshot('secret-masked');
    await button(ui.panel, 'submit').click();

    const { text } = await toolResult(ui.workbench, call);
    assert.match(text, /stored in \$AQ_CANARY_TOKEN/);
    const seen: Record<string, boolean> = {
      toolResult: text.includes(canary),
      history: JSON.stringify(await driver('history')).includes(canary),
      tree: JSON.stringify(await driver('command', { id: 'agentQuestions.internal.attentionState' })).includes(canary),
      webviewAfterSubmit: (await ui.panel.content()).includes(canary),
      browserStorage: await page.evaluate(async (needle) => {
        const dump: string[] = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
        for (const info of await indexedDB.databases()) {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open(info.name!);
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          for (const store of db.objectStoreNames) {
            const values = await new Promise<unknown[]>((resolve) => {
              const request = db.transaction(store).objectStore(store).getAll();
              request.onsuccess = () => resolve(request.result);
              request.onerror = () => resolve([]);
            });
            dump.push(JSON.stringify(values, (_k, v) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v)));
          }
          db.close();
        }
        return dump.join('\n').includes(needle);
      }, canary),
    };
    // Logs, workspace and global state (state.vscdb), settings and extension storage of this profile.
    await quietFor(WRITES_MS);
    const serverFiles = filesContaining(ui.workbench.stateDir, canary);
    const artifacts = filesContaining(RESULTS, canary);
    assert.deepEqual(seen, { toolResult: false, history: false, tree: false, webviewAfterSubmit: false, browserStorage: false });
    assert.deepEqual(serverFiles, [], 'no server-side file holds the canary');
    assert.deepEqual(artifacts, [], 'no test artifact holds the canary');
  });

  test('"Use the stored value" answers without typing; Show/Hide works', async () => {
    const call = await invoke(ui.workbench, secretRequest('AQ_CANARY_TOKEN'));
    await waitForRequest(ui.panel, 'Your key for AQ_CANARY_TOKEN?');
    await ui.panel.locator('.secret-choice vscode-radio[value="stored"][aria-checked="true"]').waitFor(); // offered first
    await button(ui.panel, 'submit').click();
    const { json } = await toolResult(ui.workbench, call);
    assert.deepEqual(json.answers.key, { selected: [], skipped: false, secret: { stored: true, envVar: 'AQ_CANARY_TOKEN' } });

    const second = await invoke(ui.workbench, secretRequest('AQ_SHOW_HIDE_TOKEN'));
    await waitForRequest(ui.panel, 'Your key for AQ_SHOW_HIDE_TOKEN?');
    await ui.panel.locator('.secret-field').click();
    await ui.workbench.page.keyboard.type('visible-for-a-moment');
    await ui.panel.locator('.secret-toggle').click();
    assert.equal(await ui.panel.locator('.secret-field').getAttribute('type'), 'text');
    await ui.panel.locator('.secret-toggle').click();
    assert.equal(await ui.panel.locator('.secret-field').getAttribute('type'), 'password');
    await ui.panel.locator('.secret-choice vscode-radio[value="decline"]').click();
    await button(ui.panel, 'submit').click();
    assert.deepEqual((await toolResult(ui.workbench, second)).json.answers.key, { selected: [], skipped: true });
    await ui.workbench.driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] });
  });

  test('prevents a secret given in one workspace from reaching another; "Use in all workspaces" shares it', async () => {
    const { page, driver } = ui.workbench;
    const hereOnly = `here-${randomBytes(8).toString('hex')}`;
    const everywhere = `everywhere-${randomBytes(8).toString('hex')}`;
    await answerSecret(ui.workbench, ui.panel, 'AQ_HERE_ONLY_TOKEN', hereOnly, false);
    await answerSecret(ui.workbench, ui.panel, 'AQ_EVERYWHERE_TOKEN', everywhere, true);
    assert.deepEqual(await storedHere(ui.workbench), [
      { name: 'AQ_EVERYWHERE_TOKEN', scope: 'all' },
      { name: 'AQ_HERE_ONLY_TOKEN', scope: 'workspace' },
    ]);

    // The same VS Code (same secret storage and global state), another folder. The workbench writes
    // state to the browser's storage a moment later: until it has, or the new window sees nothing.
    await until("the workbench to write the secret's record to the browser's storage", () => browserStorageMentions(page, 'AQ_EVERYWHERE_TOKEN'));
    const other = mkdtempSync(join(tmpdir(), 'aq-other-workspace-'));
    try {
      const url = new URL(page.url());
      url.searchParams.set('folder', other);
      await page.goto(url.toString());
      await page.locator('.monaco-workbench').waitFor();
      // The driver answers from the new window's extension host once history is this workspace's (empty).
      await until("the new window's extension host to answer", async () => {
        const history = await driver<unknown[]>('history').catch(() => undefined);
        return Array.isArray(history) && history.length === 0;
      });
      assert.deepEqual(await driver('history'), []);
      assert.deepEqual(await storedHere(ui.workbench), [{ name: 'AQ_EVERYWHERE_TOKEN', scope: 'all' }]);
      assert.deepEqual(await driver('terminalEnv', { names: ['AQ_HERE_ONLY_TOKEN', 'AQ_EVERYWHERE_TOKEN'] }), { AQ_HERE_ONLY_TOKEN: '', AQ_EVERYWHERE_TOKEN: everywhere });

      await openAgentQuestionsView(page);
      ui.panel = await ui.workbench.panel();
      const call = await invoke(ui.workbench, secretRequest('AQ_HERE_ONLY_TOKEN'));
      await waitForRequest(ui.panel, 'Your key for AQ_HERE_ONLY_TOKEN?');
      assert.equal(await ui.panel.locator('.secret-choice vscode-radio[value="stored"]').count(), 0, 'no stored value is offered here');
      await ui.panel.locator('.secret-choice vscode-radio[value="decline"]').click();
      await button(ui.panel, 'submit').click();
      assert.deepEqual((await toolResult(ui.workbench, call)).json.answers.key, { selected: [], skipped: true });
    } finally {
      await driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] }).catch(() => undefined);
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('prevents a secret from being set as a variable that is not a credential name without the user\'s say: a warning, and Submit only after "Set $PIP_INDEX_URL anyway"', async () => {
    const { driver } = ui.workbench;
    const call = await invoke(ui.workbench, secretRequest('PIP_INDEX_URL'));
    await waitForRequest(ui.panel, 'Your key for PIP_INDEX_URL?');
    const warning = ui.panel.locator('.secret-name-warning');
    assert.match(
      (await warning.textContent()) ?? '',
      /^\$PIP_INDEX_URL is not a credential name \(such as …_API_KEY or …_TOKEN\)\. New terminals get the value as \$PIP_INDEX_URL, which can change how programs in them behave/,
    );
    const confirm = ui.panel.locator('.secret-name-confirm');
    assert.equal(await confirm.getAttribute('aria-checked'), 'false', 'never confirmed for the user');
    await typeIntoField(ui.workbench, ui.panel, '.secret-field', `https://made-up-${randomBytes(4).toString('hex')}.example/simple`);
    await ui.workbench.screenshot('secret-name-warning');

    // Typed but not confirmed: Submit is disabled, and pressing it anyway sends nothing.
    const submit = button(ui.panel, 'submit');
    assert.notEqual(await submit.getAttribute('disabled'), null, 'Submit is disabled until the name is confirmed');
    await submit.click({ force: true });
    await driver('ping'); // a round trip through the panel: a reply sent by that click would have reached the host first
    assert.equal((await driver<unknown[]>('list')).length, 1, 'still waiting');
    assert.deepEqual(await storedHere(ui.workbench), []);

    await confirm.click();
    await ui.panel.locator('.secret-name-confirm[aria-checked="true"]').waitFor();
    await submit.click();
    assert.match((await toolResult(ui.workbench, call)).line, /stored in \$PIP_INDEX_URL/);
    assert.deepEqual(await storedHere(ui.workbench), [{ name: 'PIP_INDEX_URL', scope: 'workspace' }]);
    await driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] });
  });

  test('a credential name shows no warning and needs no confirmation', async () => {
    const call = await invoke(ui.workbench, secretRequest('AQ_UI_API_KEY'));
    await waitForRequest(ui.panel, 'Your key for AQ_UI_API_KEY?');
    assert.equal(await ui.panel.locator('.secret-name-warning').count(), 0);
    await typeIntoField(ui.workbench, ui.panel, '.secret-field', 'made-up-key');
    await button(ui.panel, 'submit').click();
    assert.match((await toolResult(ui.workbench, call)).line, /stored in \$AQ_UI_API_KEY/);
    await ui.workbench.driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] });
  });
});
