// A plain-Node test layer (unit, ui): node out/test/harness/runLayer.js <folder> <timeoutMs> [resultsFile]
import { runMochaSuite } from './mochaSuite';

const [folder, timeout, resultsFile] = process.argv.slice(2);
if (!folder) throw new Error('usage: runLayer.js <folder> <timeoutMs> [resultsFile]');
runMochaSuite(folder, { timeout: Number(timeout ?? 10_000), resultsFile, grep: process.env.AGENT_QUESTIONS_GREP }).then(
  (result) => process.exit(result.failed > 0 ? 1 : 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
