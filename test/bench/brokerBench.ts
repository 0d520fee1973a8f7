// npm run bench: the broker against a bare Map + Promise rendezvous, measured in the same run.
// Prints cycles per second and their ratio, with and without schema validation, and heap bytes
// per pending request at 10,000 pending. Ratios, not absolute times, are what to compare.
import { parseAskUserInput } from '../../src/broker/questions/askUserInput';
import { QuestionBroker } from '../../src/broker/broker';
import { newRequestId } from '../../src/broker/ids';
import type { Answers, Question } from '../../src/broker/contract/schemas';
import { median, runBench } from './benchKit';

const RAW_INPUT = {
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the new service use?',
      options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }, { label: 'MongoDB' }],
    },
  ],
};
const QUESTIONS: Question[] = [
  {
    id: 'database',
    header: 'Database',
    question: 'Which database should the new service use?',
    kind: 'single',
    options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }, { label: 'MongoDB' }],
    allowOther: true,
  },
];
const ANSWERS: Answers = { database: { selected: ['SQLite'], skipped: false } };
const SOURCE = { type: 'tool' as const, label: 'Bench' };

/** The least a rendezvous can do: a map of resolvers. */
class BareRendezvous {
  private readonly pending = new Map<string, { request: unknown; resolve: (answers: Answers) => void }>();
  ask(request: unknown): { id: string; response: Promise<Answers> } {
    const id = newRequestId();
    return { id, response: new Promise((resolve) => this.pending.set(id, { request, resolve })) };
  }
  reply(id: string, answers: Answers): void {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    entry?.resolve(answers);
  }
  get size() {
    return this.pending.size;
  }
}

type Cycle = () => Promise<void>;

function cycles() {
  const bare = new BareRendezvous();
  const broker = new QuestionBroker({ newId: newRequestId });
  broker.onDidChange(() => undefined); // the extension always has listeners (panel, tree, history)
  let lastId = '';
  broker.onDidChange((c) => (lastId = c.request.id));
  const bareCycle: Cycle = async () => {
    const { id, response } = bare.ask({ questions: QUESTIONS });
    bare.reply(id, ANSWERS);
    await response;
  };
  const brokerCycle: Cycle = async () => {
    const response = broker.ask({ source: SOURCE, questions: QUESTIONS });
    broker.reply(lastId, ANSWERS, { by: 'user', where: 'panel' });
    await response;
  };
  const bareValidatedCycle: Cycle = async () => {
    const parsed = parseAskUserInput(RAW_INPUT);
    if (!parsed.ok) throw new Error(parsed.message);
    const { id, response } = bare.ask({ questions: parsed.questions });
    bare.reply(id, ANSWERS);
    await response;
  };
  const brokerValidatedCycle: Cycle = async () => {
    const parsed = parseAskUserInput(RAW_INPUT);
    if (!parsed.ok) throw new Error(parsed.message);
    const response = broker.ask({ source: SOURCE, questions: parsed.questions });
    broker.reply(lastId, ANSWERS, { by: 'user', where: 'panel' });
    await response;
  };
  return { bareCycle, brokerCycle, bareValidatedCycle, brokerValidatedCycle, sizes: () => bare.size + broker.size };
}

async function perSecond(cycle: Cycle, count: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await cycle();
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Alternates baseline and candidate rounds so machine noise hits both alike. */
async function compare(label: string, baseline: Cycle, candidate: Cycle, count: number, rounds = 7) {
  await perSecond(baseline, count / 4);
  await perSecond(candidate, count / 4);
  const b: number[] = [];
  const c: number[] = [];
  for (let round = 0; round < rounds; round++) {
    b.push(await perSecond(baseline, count));
    c.push(await perSecond(candidate, count));
  }
  const ratio = median(b) / median(c);
  console.log(`${label.padEnd(44)} baseline ${fmt(median(b))}/s  broker ${fmt(median(c))}/s  ratio ${ratio.toFixed(2)}x (target <= 5x)`);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function bytesPerPending(count: number) {
  const freshQuestions = (): Question[] => structuredClone(QUESTIONS);
  const before = heapAfterGc();
  const bare = new BareRendezvous();
  for (let i = 0; i < count; i++) void bare.ask({ source: SOURCE, questions: freshQuestions() }).response;
  const bareBytes = (heapAfterGc() - before) / count;
  if (bare.size !== count) throw new Error('bare map lost entries');

  const beforeBroker = heapAfterGc();
  const broker = new QuestionBroker({ newId: newRequestId });
  for (let i = 0; i < count; i++) void broker.ask({ source: SOURCE, questions: freshQuestions() });
  const brokerBytes = (heapAfterGc() - beforeBroker) / count;
  if (broker.size !== count) throw new Error('broker lost entries');
  console.log(`heap per pending request at ${fmt(count)} pending    baseline ${fmt(bareBytes)} B  broker ${fmt(brokerBytes)} B  (target < 2,048 B)`);
  broker.dispose();
  return bare;
}

async function main() {
  console.log(`Broker benchmark (node ${process.version}, ${new Date().toISOString()})`);
  const c = cycles();
  await compare('ask+reply cycles', c.bareCycle, c.brokerCycle, 20_000);
  await compare('ask+reply cycles, schema validation in both', c.bareValidatedCycle, c.brokerValidatedCycle, 10_000);
  if (c.sizes() !== 0) throw new Error('requests were left pending');
  bytesPerPending(10_000);
}

runBench(main);
