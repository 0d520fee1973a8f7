// The folder the integration and ui layers open: a copy of test/fixtures/workspace that is its own
// repository's top, as a user's project is. Opened in place, inside this clone, git would use the
// clone's repository, which is not a workspace folder, and every git command would be asked.
import { cpSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Copies the fixture workspace to `<into>/workspace`, makes it a repository, and returns its path. */
export function fixtureWorkspace(root, into) {
  const workspace = join(into, 'workspace');
  cpSync(join(root, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  spawnSync('git', ['init', '-q', workspace]);
  return workspace;
}
