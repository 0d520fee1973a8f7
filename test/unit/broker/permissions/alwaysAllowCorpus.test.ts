// The red-team corpus of issue 31: for every attack, every rule the prompt offers for its benign twin,
// remembered alone as "Always allow" (this workspace), must leave the attack asked or denied. And the
// positive controls: what those rules are for (read-only git, the project's runners, paths inside the
// workspace) is still allowed. A table per class (lines, attacks some offered rule allowed) is printed
// after the run, so a build's numbers can be quoted. Nothing in the corpus is ever run.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { NewPermissionRequest } from '../../../../src/broker/broker';
import { exactRuleKey } from '../../../../src/broker/permissions/shell/commandRules';
import { COMMAND, type CommandChecker, type RuleOption } from '../../../../src/broker/permissions/permissionRules';
import { memoryStore, RememberedPermissions } from '../../../../src/broker/permissions/rememberedPermissions';
import { displayToolCall } from '../../../../src/broker/permissions/toolCallDisplay';
import { CLASSES, caseInsensitiveCorpus, corpus, shellControls, toolControls, type AttackClass, type CorpusLine, type Places } from './alwaysAllowCorpus.data';
import { loadTestChecker } from '../../helpers/fakes';

/** A request as an agent's hook sends it: Bash `{command}` for shell lines, the tool's input otherwise. */
type Call = readonly [tool: string, input: Record<string, unknown>];

/** The path of `path` with its existing part resolved through symlinks (the rest as written). */
function realPath(path: string): string {
  const rest: string[] = [];
  for (let head = path; ; head = dirname(head)) {
    try {
      return join(realpathSync.native(head), ...rest.reverse());
    } catch {
      if (dirname(head) === head) return path;
      rest.push(basename(head));
    }
  }
}

/** realPath as a case-insensitive file system (macOS, Windows) gives it: each existing component found in any case, then resolved. */
function realPathIgnoringCase(path: string): string {
  const parts = path.split('/').filter(Boolean);
  let current = '/';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    let entry: string | undefined;
    try {
      entry = readdirSync(current).find((name) => name === part) ?? readdirSync(current).find((name) => name.toLowerCase() === part.toLowerCase());
    } catch {
      entry = undefined;
    }
    if (entry === undefined) return join(current, ...parts.slice(i));
    current = realpathSync.native(join(current, entry));
  }
  return current;
}

/** A workspace with .git/hooks, src/ and `g -> .git`, and a home with ~/.ssh, VS Code's user folder and `notes/keys -> ~/.ssh`, side by side. */
function makePlaces(): Places {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aq-corpus-')));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  for (const dir of [join(ws, '.git', 'hooks'), join(ws, 'src'), join(home, '.ssh'), join(home, '.config', 'Code', 'User'), join(home, 'notes')])
    mkdirSync(dir, { recursive: true });
  symlinkSync('.git', join(ws, 'g'));
  symlinkSync(join(home, '.ssh'), join(home, 'notes', 'keys'));
  return { ws, home, root };
}

function request(places: Places, [tool, input]: Call): NewPermissionRequest {
  const shown = displayToolCall(tool, input, [places.ws]);
  assert.ok(shown.ok, `${tool} ${JSON.stringify(input)} is shown`);
  return { source: { type: 'mcp', label: 'Claude Code' }, title: `Claude Code wants to use ${tool}`, detail: '', toolCall: shown.toolCall };
}

const asCall = (line: CorpusLine, which: 'benign' | 'attack'): Call =>
  line.length === 3 ? ['Bash', { command: which === 'benign' ? line[1] : line[2] }] : [line[1], which === 'benign' ? line[2] : line[3]];
const shown = ([tool, input]: Call) => (tool === 'Bash' ? String(input['command']) : `${tool} ${JSON.stringify(input)}`);

type Options = ConstructorParameters<typeof RememberedPermissions>[1];

/** Fresh rules for one workspace. `pathContext` is read by the positive model's path checks (ignored before it). */
function freshPermissions(places: Places, checker: CommandChecker, caseInsensitive: boolean): RememberedPermissions {
  const { ws, home } = places;
  const options = {
    loadChecker: () => Promise.resolve(checker),
    workspaceFolders: () => [ws],
    pathContext: () => ({
      workspaceFolders: [ws],
      home,
      userSettingsFolder: join(home, '.config', 'Code', 'User'),
      caseInsensitive,
      realPath: caseInsensitive ? realPathIgnoringCase : realPath,
    }),
  };
  return new RememberedPermissions({ session: memoryStore(), workspace: memoryStore(), user: memoryStore() }, options as Options);
}

interface Verdict {
  /** Labels of the rules offered for the benign twin. */
  offered: string[];
  /** Labels of the offered rules that, each alone, allowed the attack. */
  allowedBy: string[];
}

/** The rules the prompt offers for a call, in a fresh store. */
async function offers(places: Places, checker: CommandChecker, call: Call, caseInsensitive: boolean): Promise<RuleOption[]> {
  return (await freshPermissions(places, checker, caseInsensitive).decide(request(places, call))).options;
}

/** Offers the benign twin's rules, then remembers each alone in a fresh store and decides the attack (or later command). */
async function judge(places: Places, checker: CommandChecker, benign: Call, later: Call, caseInsensitive: boolean): Promise<Verdict> {
  const options = await offers(places, checker, benign, caseInsensitive);
  const allowedBy: string[] = [];
  for (const option of options) {
    const permissions = freshPermissions(places, checker, caseInsensitive);
    await permissions.remember(option, 'Claude Code', { decision: 'allow', scope: 'workspace' });
    if ((await permissions.decide(request(places, later))).decision === 'allow') allowedBy.push(option.label);
  }
  return { offered: options.map((o) => o.label), allowedBy };
}

/** Whether a command is still asked with an exact rule for exactly it remembered (it writes where no rule may allow). */
async function askedUnderItsOwnExactRule(places: Places, checker: CommandChecker, command: string, caseInsensitive: boolean): Promise<boolean> {
  const permissions = freshPermissions(places, checker, caseInsensitive);
  await permissions.remember({ key: `${COMMAND}${exactRuleKey(command)}`, value: true, label: command, description: 'exact' }, 'Claude Code', {
    decision: 'allow',
    scope: 'workspace',
  });
  return (await permissions.decide(request(places, ['Bash', { command }]))).decision !== 'allow';
}

/** Per class: lines, and attacks some offered rule allowed in this build. */
type Tally = Map<AttackClass, { lines: number; allowed: number }>;

function printTally(title: string, tally: Tally): void {
  const rows = [...tally].map(([cls, t]) => `  ${cls.padEnd(24)} ${String(t.lines).padStart(5)} ${String(t.allowed).padStart(8)}`);
  const lines = [...tally.values()].reduce((s, t) => s + t.lines, 0);
  const allowed = [...tally.values()].reduce((s, t) => s + t.allowed, 0);
  console.log(
    [
      `\n  ${title}`,
      `  ${'class'.padEnd(24)} ${'lines'.padStart(5)} ${'allowed'.padStart(8)}`,
      ...rows,
      `  ${'total'.padEnd(24)} ${String(lines).padStart(5)} ${String(allowed).padStart(8)}\n`,
    ].join('\n'),
  );
}

function describeFailures(failures: string[]): string {
  return `${failures.length} allowed:\n${failures.slice(0, 60).join('\n')}${failures.length > 60 ? `\n… and ${failures.length - 60} more` : ''}`;
}

/** The corpus suite for one file-system case rule: one test per class, and the table at the end. */
function corpusSuite(title: string, lines: (places: Places) => CorpusLine[], caseInsensitive: boolean): void {
  suite(title, () => {
    let places: Places;
    let checker: CommandChecker;
    const tally: Tally = new Map();

    suiteSetup(async () => {
      places = makePlaces();
      checker = await loadTestChecker();
    });
    suiteTeardown(() => {
      printTally(`${title}: attacks allowed by at least one rule offered for the benign twin (this build)`, tally);
      rmSync(places.root, { recursive: true, force: true });
    });

    // The classes are known before the folders exist; the lines are built in each test.
    const classes = CLASSES.filter((cls) => lines({ ws: '/w', home: '/h', root: '/' }).some((l) => l[0] === cls));
    for (const cls of classes) {
      test(`prevents ${cls}: no rule offered for the benign twin allows the attack`, async () => {
        const failures: string[] = [];
        const mine = lines(places).filter((l) => l[0] === cls);
        for (const line of mine) {
          const verdict = await judge(places, checker, asCall(line, 'benign'), asCall(line, 'attack'), caseInsensitive);
          if (verdict.allowedBy.length > 0)
            failures.push(`  ${shown(asCall(line, 'attack'))}   ⟵ «${verdict.allowedBy.join('», «')}» offered for: ${shown(asCall(line, 'benign'))}`);
        }
        tally.set(cls, { lines: mine.length, allowed: failures.length });
        if (failures.length > 0) assert.fail(describeFailures(failures));
      });
    }

    test('every benign twin is still offered a rule (else its line proves nothing), or its attack is asked even under an exact rule for the attack itself', async () => {
      const bare: string[] = [];
      for (const line of lines(places)) {
        if ((await offers(places, checker, asCall(line, 'benign'), caseInsensitive)).length > 0) continue;
        // Nothing offered: the twin is always asked (a write no rule may allow). Then so must be the attack, whatever rule exists.
        const attack = asCall(line, 'attack');
        if (attack[0] === 'Bash' && (await askedUnderItsOwnExactRule(places, checker, String(attack[1]['command']), caseInsensitive))) continue;
        bare.push(`  [${line[0]}] ${shown(asCall(line, 'benign'))}`);
      }
      if (bare.length > 0) assert.fail(`${bare.length} offered nothing:\n${bare.join('\n')}`);
    });
  });
}

suite('"Always allow" red-team corpus (issue 31)', () => {
  test('the corpus has at least 200 attack lines, each class at least 10', () => {
    const places: Places = { ws: '/w', home: '/h', root: '/' };
    const all = corpus(places);
    assert.ok(all.length >= 200, `${all.length} lines`);
    for (const cls of CLASSES) assert.ok(all.filter((l) => l[0] === cls).length >= 10, cls);
    assert.ok(shellControls(places).length + toolControls(places).length >= 40);
  });

  corpusSuite('case-sensitive file system (Linux)', corpus, false);
  corpusSuite('case-insensitive file system (macOS, Windows)', caseInsensitiveCorpus, true);
});

suite('"Always allow" positive controls (issue 31): what an offered rule is for is still allowed', () => {
  let places: Places;
  let checker: CommandChecker;
  let passed = 0;

  suiteSetup(async () => {
    places = makePlaces();
    checker = await loadTestChecker();
  });
  suiteTeardown(() => {
    console.log(`\n  positive controls allowed by a rule offered for their twin (this build): ${passed} of ${shellControls(places).length + toolControls(places).length}\n`);
    rmSync(places.root, { recursive: true, force: true });
  });

  test("the issue's known tools: a later command with known arguments and paths inside the workspace is allowed", async () => {
    const failures: string[] = [];
    for (const [benign, later] of shellControls(places)) {
      const verdict = await judge(places, checker, ['Bash', { command: benign }], ['Bash', { command: later }], false);
      if (verdict.allowedBy.length > 0) passed++;
      else failures.push(`  ${later}   ⟵ not allowed by any of «${verdict.offered.join('», «')}» offered for: ${benign}`);
    }
    if (failures.length > 0) assert.fail(`${failures.length} not allowed:\n${failures.join('\n')}`);
  });

  test('file tools: a relative or absolute path inside the workspace is allowed by the workspace or folder rule', async () => {
    const failures: string[] = [];
    for (const [tool, benign, later] of toolControls(places)) {
      const verdict = await judge(places, checker, [tool, benign], [tool, later], false);
      if (verdict.allowedBy.length > 0) passed++;
      else failures.push(`  ${tool} ${JSON.stringify(later)}   ⟵ not allowed by any of «${verdict.offered.join('», «')}»`);
    }
    if (failures.length > 0) assert.fail(`${failures.length} not allowed:\n${failures.join('\n')}`);
  });
});
