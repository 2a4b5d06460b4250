// Migration 0041 on a database made by the code before it: every account becomes the active owner
// of its own workspace and keeps its forms, keys and OAuth grants, doing exactly what it could before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../src/app.ts';
import { hashSecret } from '../src/accounts/secrets.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate.ts';
import { buildServices, openSecrets } from '../src/services.ts';
import { bearer, CONTACT_SCHEMA, createTestStore, RELAXED_ENV } from './helpers.ts';

describe('migration 0041 (workspaces)', () => {
  it('makes each existing account the owner of itself, keeping its forms, keys and grants', async () => {
    const store = await createTestStore();
    const config = loadConfig({ ...RELAXED_ENV, ...store.env });
    const database = openDatabase(config);
    try {
      await migrateUpTo(database, '0040_spam_sensitivity');
      const now = new Date().toISOString();
      const { db } = database;
      for (const [id, email] of [['a1', 'first@example.com'], ['a2', 'second@example.com']]) {
        await db.insertInto('accounts').values({ id, email, plan: 'free', submissions_total: 0, created_at: now } as never).execute();
        await db.insertInto('api_keys').values({ id: `k-${id}`, account_id: id, name: 'old', key_hash: hashSecret(`ik_key-of-${id}`), key_prefix: 'ik_key-of-', created_at: now } as never).execute();
      }
      await db.insertInto('oauth_records').values({ model: 'Grant', id: 'g1', payload: '{}', account_id: 'a1' } as never).execute();

      // Later migrations run too; these two are the ones that move ownership.
      const applied = await migrateToLatest(database);
      assert.deepEqual(applied.slice(0, 2), ['0041_workspaces', '0042_audit_members']);
      const members = await db.selectFrom('workspace_members').select(['id', 'workspace_id', 'person_id', 'role', 'status']).orderBy('id').execute();
      assert.deepEqual(members.map((m) => ({ ...m })), [
        { id: 'a1', workspace_id: 'a1', person_id: 'a1', role: 'owner', status: 'active' },
        { id: 'a2', workspace_id: 'a2', person_id: 'a2', role: 'owner', status: 'active' },
      ]);

      const { secrets } = await openSecrets(config, database);
      const services = buildServices(config, database, secrets);
      const app = await buildApp({ config, database, logger: false, services });
      try {
        // The old key still acts as the owner: it creates, lists and deletes, and sees the audit log.
        const created = await app.inject({ method: 'POST', url: '/api/forms', headers: bearer('ik_key-of-a1'), payload: { name: 'Old', slug: 'old', visibility: 'public', fields_schema: CONTACT_SCHEMA } });
        assert.equal(created.statusCode, 201, created.body);
        assert.equal((await app.inject({ method: 'GET', url: '/api/audit', headers: bearer('ik_key-of-a1') })).statusCode, 200);
        const listed = await app.inject({ method: 'GET', url: '/api/forms', headers: bearer('ik_key-of-a1') });
        assert.equal(listed.json().forms?.length ?? listed.json().data?.length, 1);
        // The other account sees none of it.
        assert.equal((await app.inject({ method: 'GET', url: `/api/forms/${created.json().id}`, headers: bearer('ik_key-of-a2') })).statusCode, 404);
        // A grant made before 0041 acts as the workspace's own account, an owner.
        assert.deepEqual(await services.workspaces.grantMember('g1', 'a1'), { personId: 'a1', role: 'owner', email: 'first@example.com' });
      } finally {
        await app.close();
        await services.limits.close();
        await services.live.close();
      }
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
