// Writes this window's discovery file while the endpoint listens, so the hook VS Code's own agent
// runs (it has no terminal's AGENT_QUESTIONS_* variables) can find it: 0600 in a 0700 folder under
// the user's configuration folder (src/broker/contract/endpointDiscovery.ts). Removed when the
// endpoint stops. The token goes into the file only, never into the log.
import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { endpointDiscoveryFolder, type EndpointRecord } from '../broker/contract/endpointDiscovery';

export class EndpointDiscoveryFile {
  readonly path: string;

  constructor(
    env: Record<string, string | undefined> = process.env,
    home = homedir(),
    private readonly pid = process.pid,
  ) {
    this.path = join(endpointDiscoveryFolder(env, home), `${pid}.json`);
  }

  /**
   * Writes the file whole (a temporary file renamed over it, so a hook never reads half of it), again
   * whenever the folders or the wait change; `log` hears why it could not.
   */
  write(url: string, token: string, folders: readonly string[], log: { warn(message: string): void }, waitSeconds?: number): void {
    try {
      this.writeNow({ url, token, folders: [...folders], pid: this.pid, ...(waitSeconds !== undefined ? { waitSeconds } : {}) });
    } catch (error) {
      log.warn(`External agents: could not write ${this.path} for VS Code's agent hook: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private writeNow(record: EndpointRecord): void {
    const folder = join(this.path, '..');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeSync(fd, JSON.stringify(record));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
