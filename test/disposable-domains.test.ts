// The compact copy of mailchecker's list answers as mailchecker's own Set does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import MailChecker from 'mailchecker';
import { isListedDomain, mailcheckerDomains } from '../src/pipeline/spam/signals/disposable-domains.ts';
import { disposableDomainOf } from '../src/pipeline/spam/signals/disposable-email.ts';

const listed = MailChecker.blacklist();

test('every domain of mailchecker is found, and the reader finds all of them', () => {
  assert.equal(new Set(mailcheckerDomains()).size, listed.size);
  for (const domain of listed) assert.ok(isListedDomain(domain), domain);
});

test('near misses are not found', () => {
  let checked = 0;
  for (const domain of listed) {
    for (const near of [`${domain}x`, `x${domain}`, domain.slice(0, -1), `${domain}.`]) {
      if (listed.has(near)) continue;
      assert.equal(isListedDomain(near), false, near);
      checked++;
    }
  }
  assert.ok(checked > listed.size * 3);
  assert.equal(isListedDomain(''), false);
  assert.equal(isListedDomain('example.com'), false);
});

test('addresses: listed domains, their subdomains and case are matched as before', () => {
  const domain = [...listed].find((d) => d.split('.').length === 2) as string;
  assert.equal(disposableDomainOf(`someone@${domain}`), domain);
  assert.equal(disposableDomainOf(`someone@mail.${domain.toUpperCase()}`), domain);
  assert.equal(disposableDomainOf('someone@example.com'), null);
  assert.equal(disposableDomainOf('not an address'), null);
});
