// One rule for which fields name a person: the inbox's sender column and a smart reply's greeting
// read the same one, so a form whose fields are "vorname" and "nachname" is shown and greeted alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FIRST_NAME_KEY, LAST_NAME_KEY, namesPerson, WHOLE_NAME_KEY } from '../src/forms/name-fields.ts';
import { senderOf } from '../src/dashboard/pages/submission-summary.ts';
import { submitterName } from '../src/replies/compose.ts';
import type { FieldDefinition } from '../src/forms/field-schema.ts';

const field = (name: string): FieldDefinition => ({ name, type: 'string' }) as FieldDefinition;

describe('name fields', () => {
  it('knows whole, given and family names in their usual spellings and languages', () => {
    for (const key of ['name', 'Name', 'full_name', 'fullName', 'your-name', 'contact name', 'customer_name', 'nom', 'nombre', 'nome', 'naam']) assert.ok(WHOLE_NAME_KEY.test(key), key);
    for (const key of ['first_name', 'firstName', 'given name', 'forename', 'Vorname', 'prénom', 'prenom']) assert.ok(FIRST_NAME_KEY.test(key), key);
    for (const key of ['last_name', 'lastName', 'family-name', 'surname', 'Nachname']) assert.ok(LAST_NAME_KEY.test(key), key);
    for (const key of ['username', 'company_name', 'filename', 'name_of_product', 'nickname', 'domain']) assert.ok(!namesPerson(key) && !LAST_NAME_KEY.test(key), key);
  });

  it('gives the inbox and the reply the same person', () => {
    const data = { vorname: 'Ada', nachname: 'Lovelace', nachricht: 'Guten Tag' };
    assert.equal(senderOf(data), 'Ada Lovelace');
    assert.equal(submitterName(data, [field('vorname'), field('nachname'), field('nachricht')]), 'Ada');
    const english = { forename: 'Grace', message: 'Hello' };
    assert.equal(senderOf(english), 'Grace');
    assert.equal(submitterName(english, [field('forename'), field('message')]), 'Grace');
  });
});
