// Claude Code shows its own permission prompt while the hook waits, and does not stop the hook
// when the user answers there. Its transcript (JSONL) records the tool call and, once it was
// answered, its result: seeing that result, the hook stops waiting and the panel settles the request.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { isObject } from '../../hook/isObject';

/** Enough for any recent turn; older history cannot hold the call waiting now. */
const MAX_INITIAL_READ = 8 * 1024 * 1024;

const blocksOf = (entry: unknown): Record<string, unknown>[] => {
  const content = isObject(entry) && isObject(entry['message']) ? entry['message']['content'] : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
};

/**
 * Resolves when the transcript shows a result for the tool call the hook asks about (the same tool
 * and input, still without a result when first seen): it was answered in Claude Code's own prompt.
 * Never resolves without a transcript. Polls until `signal` aborts.
 */
export function answeredInTranscript(input: unknown, signal: AbortSignal, intervalMs = 500): Promise<void> {
  return new Promise((resolve) => {
    if (!isObject(input) || typeof input['transcript_path'] !== 'string' || !isAbsolute(input['transcript_path'])) return;
    const path = input['transcript_path'];
    const wanted = JSON.stringify(input['tool_input']);
    const toolName = input['tool_name'];
    const open = new Set<string>();
    let offset = -1; // -1 until the first read: results found then are history, not answers
    let partial = '';

    const take = (line: string, initial: boolean) => {
      let entry: unknown;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      for (const block of blocksOf(entry)) {
        if (block['type'] === 'tool_use' && block['name'] === toolName && typeof block['id'] === 'string' && JSON.stringify(block['input']) === wanted) open.add(block['id']);
        if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string' && open.delete(block['tool_use_id']) && !initial) finish();
      }
    };
    const scan = () => {
      let fd: number | undefined;
      try {
        const size = statSync(path).size;
        const initial = offset < 0;
        const start = initial ? Math.max(0, size - MAX_INITIAL_READ) : offset;
        if (size <= start) return;
        const buffer = Buffer.alloc(size - start);
        fd = openSync(path, 'r');
        readSync(fd, buffer, 0, buffer.length, start);
        offset = size;
        const lines = (partial + buffer.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        if (initial && start > 0) lines.shift(); // began mid-line
        for (const line of lines) take(line, initial);
      } catch {
        // no transcript (yet): nothing to watch
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    };
    const timer = setInterval(scan, intervalMs);
    const finish = () => {
      clearInterval(timer);
      resolve();
    };
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    scan();
  });
}
