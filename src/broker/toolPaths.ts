// The paths a tool call touches, found by key name in any case and at any depth (filePath,
// notebook_path, parentDir, Glob's pattern, arrays of them), and the files that grant permissions
// or run code: writing those is how an agent raises its own permissions, so no rule covers them.
import { isInside } from './toolCallDisplay';

/** A key that names a path: path, file, dir, folder, cwd, root, pattern(s), glob, in any case and spelling. */
const PATH_KEY = /path|file|dir|folder|cwd|root|pattern|glob/i;
const MAX_DEPTH = 8;

/** Every string under a path-like key (or in an array under one), in order, each once. */
export function pathsIn(input: Record<string, unknown>): string[] {
  const found: string[] = [];
  const visit = (value: unknown, pathKey: boolean, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (pathKey && value.trim()) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, pathKey, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(item, PATH_KEY.test(key), depth + 1);
    }
  };
  visit(input, false, 0);
  return [...new Set(found)];
}

/** Agent and editor configuration that grants permissions or runs code, as path patterns. */
const PROTECTED: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /(^|[\\/])\.claude([\\/]|$)/i, what: "Claude Code's settings and hooks (.claude/)" },
  { pattern: /(^|[\\/])\.codex([\\/]|$)/i, what: "Codex's configuration and hooks (.codex/)" },
  { pattern: /(^|[\\/])\.opencode([\\/]|$)/i, what: "OpenCode's configuration and plugins (.opencode/)" },
  { pattern: /(^|[\\/])opencode\.jsonc?$/i, what: "OpenCode's configuration (opencode.json)" },
  { pattern: /(^|[\\/])\.mcp\.json$/i, what: 'MCP servers an agent starts (.mcp.json)' },
  { pattern: /(^|[\\/])\.vscode[\\/](settings|tasks|launch)\.json$/i, what: "VS Code's workspace settings, tasks or launch configurations" },
  { pattern: /(^|[\\/])[^\\/]*\.code-workspace$/i, what: 'a VS Code workspace file (its settings)' },
  { pattern: /(^|[\\/])\.git[\\/](hooks([\\/]|$)|config$)/i, what: "Git's hooks or configuration (they run code)" },
];

/** What a path is, when it is configuration that grants permissions or runs code. */
export function protectedTarget(path: string): string | undefined {
  return PROTECTED.find((p) => p.pattern.test(path.trim()))?.what;
}

/** The protected targets a text mentions anywhere (a shell command's words, say). */
export function protectedMentions(text: string): string[] {
  const words = text.split(/[\s'"`=;&|<>()]+/);
  return [...new Set(words.flatMap((word) => (protectedTarget(word) ? [protectedTarget(word)!] : [])))];
}

/** The folder of a path, with a trailing slash. */
export function folderOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return slash >= 0 ? path.slice(0, slash + 1) : './';
}

/** Whether `path` is `folder` or inside it (both as given, resolved against the workspace). */
export function isUnder(path: string, folder: string, workspaceFolders: readonly string[]): boolean {
  const base = workspaceFolders[0];
  const absolute = (p: string) => (isAbsolute(p) || base === undefined ? p : `${base}/${p}`);
  if (!isAbsolute(absolute(path))) return false;
  return isInside(absolute(path), [absolute(folder.replace(/[\\/]+$/, ''))]);
}

const isAbsolute = (path: string) => path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path);
