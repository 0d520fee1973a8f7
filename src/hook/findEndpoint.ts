// The hook's side of the discovery file (src/broker/contract/endpointDiscovery.ts): the endpoint of
// the VS Code window whose workspace holds the tool call's folder. A file or folder that another
// user owns or may write, or that others may read, is not trusted: its URL could send our requests
// to someone else's server, which could answer "allow".
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { endpointDiscoveryFolder, readWaitSeconds, type EndpointRecord } from '../broker/contract/endpointDiscovery';
import { isObject } from './isObject';

const MAX_FILE_BYTES = 64 * 1024;
const MAX_FILES = 64;

/** Why a folder or file is not private to this user, or undefined when it is (POSIX only; Windows relies on the profile folder's ACLs). */
function notPrivate(stats: Stats, what: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return `${what} belongs to another user`;
  if ((stats.mode & 0o077) !== 0) return `${what} is readable or writable by other users (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

export const isUnder = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readRecord(path: string): EndpointRecord | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!stats.isFile() || stats.size > MAX_FILE_BYTES || notPrivate(stats, 'the file')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const { url, token, folders, pid } = parsed;
  if (typeof url !== 'string' || typeof token !== 'string' || !token || typeof pid !== 'number' || !Array.isArray(folders)) return undefined;
  const waitSeconds = readWaitSeconds(parsed['waitSeconds']);
  return { url, token, pid, folders: folders.filter((f): f is string => typeof f === 'string' && isAbsolute(f)), ...(waitSeconds !== undefined ? { waitSeconds } : {}) };
}

/** The live windows' records, or why none can be read. */
function liveRecords(env: Record<string, string | undefined>, home: string): EndpointRecord[] | { problem: string } {
  const folder = endpointDiscoveryFolder(env, home);
  let names: string[];
  try {
    const why = notPrivate(lstatSync(folder), 'its folder');
    if (why) return { problem: `the discovery file cannot be trusted: ${why}` };
    names = readdirSync(folder).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return { problem: 'no VS Code window has the Agent Questions endpoint on' };
  }
  return names
    .slice(0, MAX_FILES)
    .map((name) => readRecord(join(folder, name)))
    .filter((r): r is EndpointRecord => r !== undefined && alive(r.pid));
}

/** The workspace folders of the live window whose endpoint is `url`; undefined when no trusted record says. */
export function windowFolders(url: string, env: Record<string, string | undefined>, home: string): string[] | undefined {
  const records = liveRecords(env, home);
  return Array.isArray(records) && url ? records.find((r) => r.url === url)?.folders : undefined;
}

/**
 * The endpoint for a tool call run in `cwd`: the live window whose workspace folder holds it (the
 * deepest folder wins), else the only live window; with that window's wait when it set one. Never
 * the token in a problem's text.
 */
export function findEndpoint(cwd: string, env: Record<string, string | undefined>, home: string): { url: string; token: string; waitSeconds?: number } | { problem: string } {
  const records = liveRecords(env, home);
  if (!Array.isArray(records)) return records;
  const depth = (record: EndpointRecord) => Math.max(-1, ...record.folders.filter((f) => cwd && isUnder(cwd, f)).map((f) => f.length));
  const holding = records.filter((r) => depth(r) >= 0).sort((a, b) => depth(b) - depth(a));
  const chosen = holding[0] ?? (records.length === 1 ? records[0] : undefined);
  if (!chosen)
    return { problem: records.length ? 'no VS Code window with the Agent Questions endpoint on has this folder open' : 'no VS Code window has the Agent Questions endpoint on' };
  return { url: chosen.url, token: chosen.token, ...(chosen.waitSeconds !== undefined ? { waitSeconds: chosen.waitSeconds } : {}) };
}
