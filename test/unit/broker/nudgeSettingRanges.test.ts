// Issue 41: `nudge.afterSeconds` below its minimum and `nudge.maxPerHour` above its maximum were used as
// written, although package.json's configuration says otherwise (a nudge every 0 s, hundreds an
// hour). Every numeric setting with a range is clamped where it is read, from one table that must
// say what the manifest says.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nudgeSettingsFrom, type NudgeSettings } from '../../../src/broker/nudges';
import { clampSetting, SETTING_RANGES } from '../../../src/broker/settingRanges';
import { ROOT } from '../helpers/repoRoot';

interface ManifestSetting {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, ManifestSetting> } } };

/** Every numeric setting the manifest gives a minimum or a maximum, with that range. */
const manifestRanges = Object.fromEntries(
  Object.entries(manifest.contributes.configuration.properties)
    .filter(([, s]) => [s.type].flat().some((t) => t === 'number' || t === 'integer') && (s.minimum !== undefined || s.maximum !== undefined))
    .map(([key, s]) => [key, { minimum: s.minimum, maximum: s.maximum }]),
);

/** What the nudge reader gives for each of its numeric settings, in the setting's own unit. */
const NUDGE_READ: Record<string, (settings: NudgeSettings) => number> = {
  afterSeconds: (s) => s.afterMs / 1000,
  reminderAfterSeconds: (s) => s.reminderAfterMs / 1000,
  maxPerHour: (s) => s.maxPerHour,
};

suite('setting ranges', () => {
  test('prevents the ranges from drifting: the table the readers clamp with says what package.json says, for every ranged numeric setting', () => {
    assert.ok(Object.keys(manifestRanges).length >= 8, 'found too few ranged settings: is the manifest read?');
    const table = Object.fromEntries(Object.entries(SETTING_RANGES).map(([key, r]) => [key, { minimum: r.minimum, maximum: 'maximum' in r ? r.maximum : undefined }]));
    assert.deepEqual(table, manifestRanges);
  });

  test("prevents out-of-range nudge settings: below the manifest's minimum reads as the minimum, above its maximum as the maximum", () => {
    const nudgeKeys = Object.keys(manifestRanges).filter((key) => key.startsWith('agentQuestions.nudge.'));
    assert.ok(nudgeKeys.length >= 3);
    for (const key of nudgeKeys) {
      const name = key.slice('agentQuestions.nudge.'.length);
      const read = NUDGE_READ[name];
      assert.ok(read, `the test does not know how the nudge reader gives ${key}: add it to NUDGE_READ`);
      const { minimum, maximum } = manifestRanges[key]!;
      const withUser = (value: number) => read(nudgeSettingsFrom((k) => (k === name ? { defaultValue: minimum, globalValue: value } : undefined)));
      if (minimum !== undefined) {
        assert.equal(withUser(minimum - 1), minimum, `${key} = ${minimum - 1}`);
        assert.equal(withUser(minimum - 0.5), minimum, `${key} = ${minimum - 0.5}`);
        assert.equal(withUser(-1e9), minimum, `${key} = -1e9`);
      }
      if (maximum !== undefined) {
        assert.equal(withUser(maximum + 1), maximum, `${key} = ${maximum + 1}`);
        assert.equal(withUser(1e9), maximum, `${key} = 1e9`);
      }
    }
    // The reported two: a nudge 0 s after a request arrives, and 500 an hour.
    const reported = nudgeSettingsFrom((k) => ({ globalValue: k === 'afterSeconds' ? 0 : k === 'maxPerHour' ? 500 : undefined }));
    assert.equal(reported.afterMs, 1000);
    assert.equal(reported.maxPerHour, 60);
  });

  test("every ranged setting is clamped to the manifest's range by clampSetting, and each is read through it in src", () => {
    const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(ROOT, 'src', file), 'utf8'))
      .join('\n');
    for (const [key, { minimum, maximum }] of Object.entries(manifestRanges)) {
      const k = key as keyof typeof SETTING_RANGES;
      if (minimum !== undefined) assert.equal(clampSetting(k, minimum - 1), minimum, key);
      if (maximum !== undefined) assert.equal(clampSetting(k, maximum + 1), maximum, key);
      const inside = minimum ?? (maximum !== undefined ? maximum - 1 : 0);
      assert.equal(clampSetting(k, inside), inside, key);
      assert.match(sources, new RegExp(`clampSetting\\(\\s*'${key.replace(/\./g, '\\.')}'`), `${key} is not read through clampSetting`);
    }
  });
});
