// A plain-Node test layer (unit, ui): node out/test/harness/runLayer.js <folder> <timeoutMs> [resultsFile] [only|except] [file,file…]
// (a part of a layer, run beside the rest): each file by its path under the folder without .test.js
// (broker/policy) or by its base name (policy); see testFiles.ts.
import { runMochaSuite } from './mochaSuite';

const [folder, timeout, resultsFile, how, files] = process.argv.slice(2);
if (!folder) throw new Error('usage: runLayer.js <folder> <timeoutMs> [resultsFile] [only|except] [file,file…]');
const choice = how === 'only' || how === 'except' ? { files: (files ?? '').split(','), except: how === 'except' } : undefined;
runMochaSuite(folder, { timeout: Number(timeout ?? 10_000), resultsFile, grep: process.env.AGENT_QUESTIONS_GREP, choice }).then(
  (result) => process.exit(result.failed > 0 ? 1 : 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
