// The benchmarks' look at where a step's time goes: a V8 CPU profile (the extension host's, through
// the test driver, or the workbench page's, through CDP) summarized between two Date.now() times.
import type { Workbench } from '../ui/workbench';

/** The parts of a V8 CPU profile (Profiler.stop) read here. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Of the window, milliseconds spent running (not idle). */
  busyMs: number;
  /** The functions with the most self time in the window, "12.3 ms name file:line". */
  top: string[];
}

/** The file and the two folders above it: Copilot Chat's dist/extension.js and ours are told apart. */
const shortName = (url: string) => url.split('/').slice(-3).join('/');

/** Self time per function between `from` and `to`; `stoppedAt` is when Profiler.stop returned (its endTime, in Date.now() terms). */
export function summarizeProfile(profile: CpuProfile, stoppedAt: number, from: number, to: number, top = 12): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let at = stoppedAt - (profile.endTime - profile.startTime) / 1000;
  profile.samples.forEach((id, i) => {
    at += (profile.timeDeltas[i] ?? 0) / 1000;
    if (at < from || at > to) return;
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${shortName(frame.url)}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const functions = [...self].sort((a, b) => b[1] - a[1]);
  const busyMs = functions.filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)')).reduce((sum, [, ms]) => sum + ms, 0);
  return { busyMs: Math.round(busyMs), top: functions.slice(0, top).map(([key, ms]) => `${ms.toFixed(1)} ms ${key}`) };
}

export type Profiles = { host: ProfileSummary; page: ProfileSummary };

/**
 * Starts CPU profiles of the extension host (through the driver) and of the workbench page (CDP; its
 * main thread also runs the panel's webview, a frame in the same process); `stop` ends both and
 * summarizes each between two Date.now() times (the host's may be other times).
 */
export async function startProfiles(workbench: Workbench): Promise<{ stop: (from: number, to: number, hostFrom?: number, hostTo?: number) => Promise<Profiles> }> {
  const pageProfiler = await workbench.page.context().newCDPSession(workbench.page);
  await pageProfiler.send('Profiler.enable');
  await pageProfiler.send('Profiler.setSamplingInterval', { interval: 500 });
  await Promise.all([pageProfiler.send('Profiler.start'), workbench.driver('profileStart')]);
  return {
    stop: async (from, to, hostFrom = from, hostTo = to) => {
      const [page, host] = await Promise.all([
        pageProfiler.send('Profiler.stop').then(({ profile }) => ({ profile: profile as CpuProfile, stoppedAt: Date.now() })),
        workbench.driver<{ profile: CpuProfile; stoppedAt: number }>('profileStop'),
      ]);
      await pageProfiler.detach();
      return { host: summarizeProfile(host.profile, host.stoppedAt, hostFrom, hostTo), page: summarizeProfile(page.profile, page.stoppedAt, from, to, 16) };
    },
  };
}
