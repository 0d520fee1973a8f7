// The integration suite's entry, loaded by VS Code's extension host (extensionTestsPath).
import { runMochaSuite } from '../harness/mochaSuite';

export async function run(): Promise<void> {
  // `npm test -- integration only a,b` (or except): "only a,b".
  const [how, files] = (process.env.AGENT_QUESTIONS_CHOICE ?? '').split(' ');
  const result = await runMochaSuite(__dirname, {
    timeout: 180_000,
    resultsFile: process.env.AGENT_QUESTIONS_RESULTS_FILE,
    grep: process.env.AGENT_QUESTIONS_GREP,
    choice: how === 'only' || how === 'except' ? { files: (files ?? '').split(','), except: how === 'except' } : undefined,
  });
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed`);
}
