// The integration suite's entry, loaded by VS Code's extension host (extensionTestsPath).
import { runMochaSuite } from '../harness/mochaSuite';

export async function run(): Promise<void> {
  const result = await runMochaSuite(__dirname, {
    timeout: 60_000,
    resultsFile: process.env.AGENT_QUESTIONS_RESULTS_FILE,
    grep: process.env.AGENT_QUESTIONS_GREP,
  });
  if (result.failed > 0) throw new Error(`${result.failed} integration test(s) failed`);
}
