// docs/configuration.md's table of variables against src/config.ts: the page is what `npm run docs:config`
// writes, every variable loadConfig reads is in it, and each documented default is the one loadConfig uses.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { CONFIG_VARIABLES, RETIRED_VARIABLES, withConfigTable } from '../src/config-variables.ts';

const page = path.resolve(import.meta.dirname, '../docs/configuration.md');

/** Settings that make loadConfig read the variables that only matter beside them (Redis, a model, translators, SMTP). */
const EVERYTHING_ON = {
  REDIS_URL: 'redis://127.0.0.1:6379',
  INTAKE_AI_BASE_URL: 'http://127.0.0.1:11434/v1',
  INTAKE_AI_MODEL: 'small',
  INTAKE_TRANSLATE_URL: 'http://127.0.0.1:5000',
  INTAKE_DEEPL_API_KEY: 'key:fx',
  INTAKE_SMTP_URL: 'smtp://127.0.0.1:2525',
  INTAKE_MAIL_FROM: 'intake@example.com',
  INTAKE_STORAGE: 's3',
  INTAKE_STORAGE_S3_BUCKET: 'intake-files',
  INTAKE_CLAMAV_URL: 'tcp://127.0.0.1:3310',
};

/** The names loadConfig looks up in an environment. */
function namesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  loadConfig(new Proxy(env, { get: (target, name) => (typeof name === 'string' && read.add(name), Reflect.get(target, name)) }));
  return read;
}

describe('docs/configuration.md', () => {
  it('has the table npm run docs:config writes', () => {
    const text = fs.readFileSync(page, 'utf8');
    assert.equal(withConfigTable(text), text, 'docs/configuration.md is stale: run npm run docs:config');
  });

  it('lists every variable loadConfig reads, and no other', () => {
    const read = new Set([...namesRead({}), ...namesRead(EVERYTHING_ON)].filter((name) => !RETIRED_VARIABLES.includes(name)));
    const listed = new Set(CONFIG_VARIABLES.map((v) => v.name));
    assert.equal(listed.size, CONFIG_VARIABLES.length, 'a variable is listed twice');
    assert.deepEqual([...read].filter((name) => !listed.has(name)), [], 'read but not documented');
    assert.deepEqual([...listed].filter((name) => !read.has(name)), [], 'documented but never read');
  });

  it('gives each default that loadConfig uses: setting a variable to it changes nothing', () => {
    for (const base of [{}, EVERYTHING_ON]) {
      const unset = loadConfig(base);
      for (const variable of CONFIG_VARIABLES) {
        // A variable the base itself sets (INTAKE_STORAGE=s3) is not at its default there.
        if (variable.default === undefined || !namesRead(base).has(variable.name) || Object.hasOwn(base, variable.name)) continue;
        assert.deepEqual(loadConfig({ ...base, [variable.name]: variable.default }), unset, `${variable.name}=${variable.default}`);
      }
    }
  });
});
