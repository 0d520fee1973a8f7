import * as assert from 'node:assert/strict';
import { keepTokenizerWarm } from '../../../src/extension/tokenizerKeepWarm';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for a condition, not for a time: a loaded machine runs timers late. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

suite('Keeping the chat tokenizer warm while ask_user waits', () => {
  test('counts a new string every interval and nothing after stop', async () => {
    const texts: string[] = [];
    const stop = keepTokenizerWarm({ countTokens: async (text) => (texts.push(text), 1) }, () => assert.fail('no error expected'), 20);
    await until(() => texts.length >= 3);
    stop();
    const counted = texts.length;
    assert.equal(new Set(texts).size, counted, 'every string is new, so no cache answers it');
    // Absence takes a wait: four intervals (late timers can only hide a count, never invent one).
    await sleep(80);
    assert.equal(texts.length, counted, 'no counting after stop');
  });

  test('does nothing without tokenization options', async () => {
    const stop = keepTokenizerWarm(undefined, () => assert.fail('no error expected'), 5);
    await sleep(30);
    stop();
  });

  test('swallows failures and reports only the first one', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const stop = keepTokenizerWarm(
      {
        countTokens: (text) => {
          calls += 1;
          if (calls % 2) throw new Error(`sync ${text}`);
          return Promise.reject(new Error('async'));
        },
      },
      (error) => errors.push(error),
      10,
    );
    await until(() => calls >= 3);
    stop();
    assert.equal(errors.length, 1);
  });
});
