// How many test layers run side by side: decided from the machine's cores and the load it sees, so a
// busy machine runs the suite slower, not red. One busy layer (a real VS Code and a browser at work)
// per core; a layer that mostly waits (the long waits: a CLI answered after minutes) takes no slot.
// No layer starts while the 1-minute load is above twice the cores, unless none of ours is running.
import { availableParallelism, loadavg } from 'node:os';

/**
 * Whether the next layer may start now. `busy` and `waiting` count the layers of ours running; a
 * waiting layer needs no free slot. With none running, one starts whatever the load (the machine's
 * other work must slow the suite down, never stop it).
 */
export function mayStart({ waits, busy, waiting, slots, cores, load }) {
  if (busy + waiting === 0) return true;
  if (!waits && busy >= slots) return false;
  return load <= 2 * cores;
}

/** Starts a job now (a start that throws is a rejected promise). */
function startNow(job) {
  try {
    return Promise.resolve(job.start());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `jobs` ({ key, waits, start(): Promise }) in the order given as the rule above allows, one start
 * at a time with `spacingMs` between starts (the load average lags what a layer just started adds).
 * Resolves with each job's result, in the order of `jobs`.
 */
export async function runJobs(
  jobs,
  {
    cores = availableParallelism(),
    slots = Number(process.env.AGENT_QUESTIONS_SLOTS) || cores,
    load = () => loadavg()[0],
    spacingMs = 20_000,
    pollMs = 2000,
    log = console.log,
  } = {},
) {
  const pending = [...jobs];
  const running = new Set();
  // Each started job's promise of its result (undefined when it could not run).
  const finished = new Map();
  let lastStart = -Infinity;
  let waitSaid = '';
  const began = Date.now();
  // Each line says when, from the first start: where the run's minutes went.
  const at = () => `[run ${Math.round((Date.now() - began) / 1000)} s]`;
  while (pending.length > 0) {
    const busy = [...running].filter((job) => !job.waits).length;
    const waiting = running.size - busy;
    const now = Date.now();
    const next = pending.find((job) => mayStart({ waits: job.waits, busy, waiting, slots, cores, load: load() }));
    if (next && (running.size === 0 || now - lastStart >= spacingMs)) {
      pending.splice(pending.indexOf(next), 1);
      running.add(next);
      lastStart = now;
      waitSaid = '';
      log(`${at()} starting ${next.key} (1-minute load ${load().toFixed(1)} on ${cores} cores; ${running.size - 1} running beside it)`);
      finished.set(
        next,
        startNow(next)
          .catch((error) => log(`${at()} ${next.key} could not run: ${error instanceof Error ? error.message : error}`))
          .then((result) => {
            log(`${at()} ${next.key} ended`);
            running.delete(next);
            return result;
          }),
      );
      continue;
    }
    if (!next && waitSaid !== pending[0].key) {
      // Once per wait: why the next job does not start.
      waitSaid = pending[0].key;
      log(`${at()} ${waitSaid} waits: ${busy >= slots ? `${busy} layers busy on ${slots} slots` : `the 1-minute load is ${load().toFixed(1)}, above ${2 * cores}`}`);
    }
    // Look again after a while, or as soon as a layer ends.
    await Promise.race([new Promise((resolve) => setTimeout(resolve, pollMs)), ...[...running].map((job) => finished.get(job))]);
  }
  return Promise.all(jobs.map((job) => finished.get(job)));
}
