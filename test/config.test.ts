import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.publicUrl, null);
    assert.equal(config.databaseUrl, null);
    assert.equal(config.poolSize, 10);
    assert.ok(path.isAbsolute(config.dataDir) && config.dataDir.endsWith(`${path.sep}data`));
    assert.equal(config.maxBodyBytes, 65536);
    assert.equal(config.files.uploadBandwidth, 0, 'no upload bandwidth limit unless set');
    assert.equal(loadConfig({ INTAKE_UPLOAD_BANDWIDTH: '16777216' }).files.uploadBandwidth, 16 * 1024 * 1024);
    assert.equal(config.trustProxy, false);
    assert.deepEqual(config.rateLimits, { submitPerMinute: 10, apiPerMinute: 60, mcpPerMinute: 30, loginPerMinute: 10, loginPerAccountPerHour: 30, oauthPerMinute: 30, oauthRegisterPerHour: 10 });
    assert.equal(config.signup, 'closed');
    assert.deepEqual(config.mcpAllowedOrigins, []);
    assert.equal(config.freeSubmissionLimit, 5000);
    assert.equal(config.freeAiCredits, 50);
    assert.equal(config.proMonthlyAiCredits, 500);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.redis, null, 'no Redis unless REDIS_URL is set');
    assert.deepEqual(loadConfig({ REDIS_URL: 'redis://cache:6379/0' }).redis, { url: 'redis://cache:6379/0', prefix: 'intake:', commandTimeoutMs: 50, breakAfter: 3, probeMs: 500 });
    assert.deepEqual(loadConfig({ REDIS_URL: 'rediss://cache', INTAKE_REDIS_PREFIX: 'forms-eu:' }).redis, { url: 'rediss://cache', prefix: 'forms-eu:', commandTimeoutMs: 50, breakAfter: 3, probeMs: 500 });
  });

  it('reads INTAKE_MCP_ALLOWED_ORIGINS as origins and refuses anything else', () => {
    assert.deepEqual(loadConfig({ INTAKE_MCP_ALLOWED_ORIGINS: ' https://App.example.com, http://localhost:6274/ ' }).mcpAllowedOrigins, ['https://app.example.com', 'http://localhost:6274']);
    for (const bad of ['app.example.com', 'https://app.example.com/mcp', 'ftp://app.example.com', 'https://app.example.com?x=1']) {
      assert.throws(() => loadConfig({ INTAKE_MCP_ALLOWED_ORIGINS: bad }), (error: ConfigError) => error.variable === 'INTAKE_MCP_ALLOWED_ORIGINS', bad);
    }
  });

  it('takes every variable from the environment', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', INTAKE_PUBLIC_URL: 'https://forms.example.com//', INTAKE_DATA_DIR: '/var/lib/intake',
      DATABASE_URL: 'postgres://u@db/intake', INTAKE_DATABASE_POOL_SIZE: '24', INTAKE_MAX_BODY_BYTES: '2048', INTAKE_TRUST_PROXY: 'true',
      INTAKE_SUBMIT_RATE_LIMIT: '100', INTAKE_API_RATE_LIMIT: '600', INTAKE_MCP_RATE_LIMIT: '300', INTAKE_LOGIN_RATE_LIMIT: '5', INTAKE_LOGIN_ACCOUNT_RATE_LIMIT: '7', INTAKE_OAUTH_RATE_LIMIT: '40', INTAKE_OAUTH_REGISTER_RATE_LIMIT: '3', INTAKE_SIGNUP: 'OPEN',
      INTAKE_FREE_SUBMISSION_LIMIT: '10', INTAKE_FREE_AI_CREDITS: '5', INTAKE_PRO_MONTHLY_AI_CREDITS: '1000',
      INTAKE_BILLING_URL: 'https://pay.example.com/upgrade', INTAKE_LOG_LEVEL: 'warn',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.publicUrl, 'https://forms.example.com');
    assert.equal(config.dataDir, '/var/lib/intake');
    assert.equal(config.databaseUrl, 'postgres://u@db/intake');
    assert.equal(config.poolSize, 24);
    assert.equal(config.maxBodyBytes, 2048);
    assert.equal(config.trustProxy, true);
    assert.deepEqual(config.rateLimits, { submitPerMinute: 100, apiPerMinute: 600, mcpPerMinute: 300, loginPerMinute: 5, loginPerAccountPerHour: 7, oauthPerMinute: 40, oauthRegisterPerHour: 3 });
    assert.equal(config.signup, 'open');
    assert.equal(config.freeSubmissionLimit, 10);
    assert.equal(config.freeAiCredits, 5);
    assert.equal(config.proMonthlyAiCredits, 1000);
    assert.equal(config.billingUrl, 'https://pay.example.com/upgrade');
    assert.equal(config.logLevel, 'warn');
  });

  it('treats an empty value as unset', () => {
    assert.equal(loadConfig({ PORT: '', DATABASE_URL: '  ' }).port, 3000);
    assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, null);
  });

  it('reads the pipeline, AI, translation and delivery settings, with offline defaults', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.ai, null);
    assert.deepEqual(defaults.translation, { libreTranslate: null, deepl: null, timeoutMs: 15_000 });
    assert.equal(defaults.pipeline.embeddedWorker, true);
    assert.equal(defaults.pipeline.jobsSchema, 'graphile_worker');
    assert.deepEqual(defaults.delivery, {
      outboundAllow: [], smtp: null, timeoutMs: 15_000, maxAttempts: 8, retrySchedule: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000], disableAfter: 15, concurrency: 16,
    });
    const config = loadConfig({
      INTAKE_AI_BASE_URL: 'http://127.0.0.1:11434/v1/', INTAKE_AI_MODEL: 'llama3.2', INTAKE_DEEPL_API_KEY: 'k:fx',
      INTAKE_TRANSLATE_URL: 'http://lt:5000', INTAKE_EMBEDDED_WORKER: 'false', INTAKE_WORKER_CONCURRENCY: '4',
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1, 10.0.0.0/8,hooks.internal', INTAKE_SMTP_URL: 'smtp://mail:25', INTAKE_MAIL_FROM: 'Intake <no-reply@x.example>',
    });
    assert.deepEqual(config.ai, { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: null, model: 'llama3.2', timeoutMs: 30_000 });
    assert.deepEqual(config.translation.libreTranslate, { url: 'http://lt:5000', apiKey: null });
    assert.deepEqual(config.translation.deepl, { apiKey: 'k:fx', url: 'https://api-free.deepl.com' });
    assert.equal(config.pipeline.embeddedWorker, false);
    assert.equal(config.pipeline.concurrency, 4);
    assert.deepEqual(config.delivery.outboundAllow, ['127.0.0.1', '10.0.0.0/8', 'hooks.internal']);
    assert.deepEqual(config.delivery.smtp, { url: 'smtp://mail:25', from: 'Intake <no-reply@x.example>' });
    assert.throws(() => loadConfig({ INTAKE_SMTP_URL: 'smtp://mail' }), /INTAKE_MAIL_FROM/);
    assert.throws(() => loadConfig({ INTAKE_AI_BASE_URL: 'http://ai/v1' }), /INTAKE_AI_MODEL: is required/);
    assert.throws(() => loadConfig({ INTAKE_AI_MODEL: 'llama3' }), /INTAKE_AI_BASE_URL: is required/);
  });

  it('refuses a bad value with an error that names the variable', () => {
    const bad: Array<[string, string]> = [
      ['PORT', 'abc'], ['PORT', '70000'], ['INTAKE_TRUST_PROXY', 'maybe'], ['DATABASE_URL', 'mysql://x/db'], ['INTAKE_DATABASE_POOL_SIZE', '0'],
      ['INTAKE_PUBLIC_URL', 'not a url'], ['INTAKE_SUBMIT_RATE_LIMIT', '0'], ['INTAKE_SIGNUP', 'maybe'], ['INTAKE_LOGIN_RATE_LIMIT', '0'], ['INTAKE_LOG_LEVEL', 'loud'],
      ['INTAKE_MAX_BODY_BYTES', '12'], ['INTAKE_FREE_SUBMISSION_LIMIT', '-1'], ['INTAKE_BILLING_URL', 'ftp://x'],
      ['INTAKE_AI_BASE_URL', 'localhost:11434'], ['INTAKE_TRANSLATE_URL', 'ftp://lt'],
      ['INTAKE_WORKER_CONCURRENCY', '0'], ['INTAKE_PG_JOBS_SCHEMA', 'jobs; drop table x'], ['INTAKE_OUTBOUND_ALLOW', '10.0.0.0/33'],
      ['INTAKE_SMTP_URL', 'http://mail'], ['INTAKE_EMBEDDED_WORKER', 'sometimes'],
      ['REDIS_URL', 'http://cache:6379'], ['INTAKE_REDIS_PREFIX', 'intake prod!'], ['INTAKE_DELIVERY_RETRY_SCHEDULE', '5 minutes'],
      ['INTAKE_UPLOAD_BANDWIDTH', '65535'], ['INTAKE_UPLOAD_BANDWIDTH', '16 MiB'], ['OTEL_BSP_MAX_QUEUE_SIZE', '0'],
    ];
    for (const [variable, value] of bad) {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.startsWith(`${variable}:`),
        `${variable}=${value}`,
      );
    }
  });
  it('file storage: disk by default; s3 needs a bucket, and keys go in pairs', () => {
    assert.deepEqual(loadConfig({}).files.storage, { kind: 'disk' });
    const s3 = { INTAKE_STORAGE: 's3', INTAKE_STORAGE_S3_BUCKET: 'forms-files' };
    assert.deepEqual(loadConfig({ ...s3, INTAKE_STORAGE_S3_ENDPOINT: 'http://minio:9000/', INTAKE_STORAGE_S3_ACCESS_KEY_ID: 'id', INTAKE_STORAGE_S3_SECRET_ACCESS_KEY: 'secret', INTAKE_STORAGE_S3_FORCE_PATH_STYLE: 'true' }).files.storage, {
      kind: 's3', endpoint: 'http://minio:9000', bucket: 'forms-files', region: 'us-east-1', credentials: { accessKeyId: 'id', secretAccessKey: 'secret' }, forcePathStyle: true,
    });
    const bad: Array<[Record<string, string>, string]> = [
      [{ INTAKE_STORAGE: 'ftp' }, 'INTAKE_STORAGE'],
      [{ INTAKE_STORAGE: 's3' }, 'INTAKE_STORAGE_S3_BUCKET'],
      [{ ...s3, INTAKE_STORAGE_S3_BUCKET: 'Bad_Bucket' }, 'INTAKE_STORAGE_S3_BUCKET'],
      [{ ...s3, INTAKE_STORAGE_S3_ACCESS_KEY_ID: 'id' }, 'INTAKE_STORAGE_S3_SECRET_ACCESS_KEY'],
      [{ ...s3, INTAKE_STORAGE_S3_SECRET_ACCESS_KEY: 'secret' }, 'INTAKE_STORAGE_S3_ACCESS_KEY_ID'],
      [{ ...s3, INTAKE_STORAGE_S3_ENDPOINT: 'minio:9000' }, 'INTAKE_STORAGE_S3_ENDPOINT'],
    ];
    for (const [env, variable] of bad) {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.variable === variable, JSON.stringify(env));
    }
    // The secret never appears in a message.
    assert.throws(() => loadConfig({ ...s3, INTAKE_STORAGE_S3_SECRET_ACCESS_KEY: 'hunter2' }), (error: Error) => !error.message.includes('hunter2'));
  });
});
