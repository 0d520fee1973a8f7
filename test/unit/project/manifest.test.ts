import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/repoRoot';

const root = ROOT;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const REPO = 'https://github.com/openoxide/agent-questions';
/** A manifest value with its %key% replaced by the English text, as VS Code shows it. */
const english = (value: string) => value.replace(/^%([^%]+)%$/, (_, key: string) => nls[key] ?? value);

/** Width, height and colour type from a PNG's IHDR chunk (the first chunk, right after the signature). */
function pngHeader(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'not a PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', 'the first chunk is not IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

suite('marketplace manifest', () => {
  test('the icon is a 128x128 PNG (the marketplace refuses SVG icons)', () => {
    assert.match(manifest.icon, /\.png$/);
    const file = join(root, manifest.icon);
    assert.ok(existsSync(file), `${manifest.icon} is missing: run node scripts/renderIcon.mjs`);
    assert.deepEqual(pngHeader(readFileSync(file)), { width: 128, height: 128 });
  });

  test('galleryBanner, homepage, bugs and qna point at the project', () => {
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
    assert.equal(manifest.repository.url, REPO);
    assert.equal(manifest.homepage, `${REPO}#readme`);
    assert.equal(manifest.bugs.url, `${REPO}/issues`);
    assert.equal(manifest.qna, `${REPO}/discussions`);
  });

  test('capabilities state what works in a virtual workspace and in Restricted Mode', () => {
    const { virtualWorkspaces, untrustedWorkspaces } = manifest.capabilities;
    assert.equal(virtualWorkspaces.supported, 'limited');
    const description = english(virtualWorkspaces.description);
    for (const subject of ['answersFile', 'terminals', 'MCP endpoint']) assert.ok(description.includes(subject), `the virtual workspace description does not mention ${subject}`);
    assert.equal(untrustedWorkspaces.supported, 'limited');
    assert.ok(english(untrustedWorkspaces.description).length > 40);
  });

  test('every setting has a description, an order, and enum settings describe each value', () => {
    const properties: Record<string, Record<string, unknown>> = manifest.contributes.configuration.properties;
    const orders = new Set<unknown>();
    for (const [name, setting] of Object.entries(properties)) {
      const description = (setting.markdownDescription ?? setting.description) as string | undefined;
      assert.ok(description && english(description).length > 20, `${name} has no description`);
      assert.equal(typeof setting.order, 'number', `${name} has no order`);
      orders.add(setting.order);
      if (setting.enum) {
        const descriptions = (setting.enumDescriptions ?? setting.markdownEnumDescriptions) as string[] | undefined;
        assert.equal(descriptions?.length, (setting.enum as unknown[]).length, `${name}: one enumDescription per value`);
      }
    }
    assert.equal(orders.size, Object.keys(properties).length, 'two settings share an order');
  });

  test('the walkthrough: each step has a picture, alt text, a command button and a completion event', () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    const commands = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
    assert.equal(walkthrough.steps.length, 4);
    for (const step of walkthrough.steps) {
      for (const theme of ['light', 'dark', 'hc', 'hcLight']) assert.ok(existsSync(join(root, step.media.image[theme])), `${step.id}: ${theme} picture is missing`);
      assert.ok(english(step.media.altText).length > 20, `${step.id}: no alt text`);
      const buttons = [...english(step.description).matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1] ?? '');
      assert.ok(buttons.length > 0, `${step.id}: no command button`);
      for (const id of buttons.filter((b) => b.startsWith('agentQuestions.'))) assert.ok(commands.has(id), `${step.id}: ${id} is not a contributed command`);
      assert.ok(step.completionEvents.length > 0, `${step.id}: no completion event`);
      for (const event of step.completionEvents) assert.match(event, /^(onCommand:agentQuestions\.\w+|onContext:agentQuestions\.walkthrough\.\w+)$/);
    }
  });

  test('vsce package prints no warning and ships the icon, the pictures and package.nls.json', function () {
    this.timeout(60_000);
    const folder = mkdtempSync(join(tmpdir(), 'agent-questions-vsce-'));
    try {
      const vsce = require.resolve('@vscode/vsce/vsce');
      const vsix = join(folder, 'test.vsix');
      // stderr is where vsce writes its WARNINGs; a warning that stops to ask fails on the closed stdin.
      const run = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GITHUB_ACTIONS: '' },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.doesNotMatch(`${run.stdout}${run.stderr}`, /WARNING/);
      // A zip stores each entry's name uncompressed.
      const entries = readFileSync(vsix).toString('latin1');
      for (const file of ['media/icon.png', 'package.nls.json', 'media/walkthrough/ask-sample-dark.svg'])
        assert.ok(entries.includes(`extension/${file}`), `${file} is not in the .vsix`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

suite('npm start', () => {
  test('says where to look in the same words as the README: the Question view beside the Chat, the Queue in the activity bar', () => {
    const start = readFileSync(join(root, 'scripts', 'start.mjs'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const said = 'sits next to the Chat (in the secondary side bar, above the chat); the Queue is under Agent Questions in the activity bar';
    assert.ok(start.includes(`The Question view ${said}`), 'npm start says it');
    assert.ok(readme.includes(`the **Question** view ${said.replace('Agent Questions', '**Agent Questions**').replace('the Queue', 'the **Queue**')}`), 'the README says the same');
    assert.doesNotMatch(start, /click "Agent Questions" in the activity bar/);
  });
});

suite('settings a repository cannot flip', () => {
  test("prevents a repository's .vscode/settings.json from turning on the endpoint or an answers file: who answers and what is allowed are machine or application settings", () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string }>;
    for (const key of [
      'agentQuestions.mode',
      'agentQuestions.answersFile',
      'agentQuestions.mcp.enabled',
      'agentQuestions.mcp.port',
      'agentQuestions.permissions.honorTerminalAutoApprove',
    ]) {
      assert.ok(['machine', 'application'].includes(properties[key]?.scope ?? ''), `${key} has scope ${properties[key]?.scope}`);
    }
  });

  test("prevents a repository's .vscode/settings.json from changing nudges (how often, how many, what they say): every nudge setting is a machine or application setting", () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string }>;
    const nudge = Object.keys(properties).filter((key) => key.startsWith('agentQuestions.nudge.'));
    assert.ok(nudge.length >= 5, `only ${nudge.length} nudge settings found`);
    for (const key of nudge) assert.ok(['machine', 'application'].includes(properties[key]?.scope ?? ''), `${key} has scope ${properties[key]?.scope}`);
  });
});
