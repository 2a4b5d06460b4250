// The synchronous half of the outbound policy: which URLs and addresses a destination may use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkUrl, isAllowedAddress, isAllowedHost, outboundPolicy, refusedAddressKind } from '../src/delivery/outbound/index.ts';

const NONE = outboundPolicy({ outboundAllow: [] });

describe('address classification', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['192.0.2.10', 'reserved'], // documentation
    ['198.18.0.1', 'reserved'], // benchmarking
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['4000::1', 'reserved'], // unicast to ipaddr, but outside 2000::/3
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::127.0.0.1', 'loopback'], // IPv4-compatible, as glibc prints it
    ['::7f00:1', 'loopback'],
    ['::8.8.8.8', 'reserved'], // IPv4-compatible form of a public address: never used for services
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated
    ['64:ff9b::a00:5', 'private'], // NAT64 of 10.0.0.5
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::808:808', 'reserved'], // local-use NAT64 prefix
    ['2002:c0a8:101::1', 'private'], // 6to4 of 192.168.1.1
    ['2002:7f00:1::', 'loopback'],
    ['2001::1', 'reserved'], // Teredo
    ['not-an-address', 'invalid'],
  ];
  for (const [address, kind] of refused) {
    it(`refuses ${address} as ${kind}`, () => assert.equal(refusedAddressKind(address), kind));
  }

  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
    it(`lets the public address ${address} through`, () => assert.equal(refusedAddressKind(address), null));
  }
});

describe('the allow list', () => {
  const policy = outboundPolicy({ outboundAllow: ['Receiver.Test', '127.0.0.1', '10.0.0.0/8', 'fd00::/8', '[::1]'] });

  it('matches host names exactly, ignoring case and a trailing dot', () => {
    assert.equal(isAllowedHost('receiver.test', policy), true);
    assert.equal(isAllowedHost('RECEIVER.TEST.', policy), true);
    assert.equal(isAllowedHost('a.receiver.test', policy), false);
    assert.equal(isAllowedHost('receiver.test.evil.example', policy), false);
  });

  it('matches addresses and CIDR ranges of both families, and IPv4 addresses inside IPv6 forms', () => {
    assert.equal(isAllowedAddress('127.0.0.1', policy), true);
    assert.equal(isAllowedAddress('127.0.0.2', policy), false);
    assert.equal(isAllowedAddress('10.200.3.4', policy), true);
    assert.equal(isAllowedAddress('11.0.0.1', policy), false);
    assert.equal(isAllowedAddress('fd00::5', policy), true);
    assert.equal(isAllowedAddress('fc00::5', policy), false);
    assert.equal(isAllowedAddress('::1', policy), true);
    assert.equal(isAllowedAddress('::ffff:127.0.0.1', policy), true);
    assert.equal(isAllowedAddress('::ffff:10.1.1.1', policy), true);
    assert.equal(isAllowedHost('[::ffff:7f00:1]', policy), true);
  });

  it('allows nothing when empty', () => {
    assert.equal(isAllowedAddress('127.0.0.1', NONE), false);
    assert.equal(isAllowedHost('receiver.test', NONE), false);
  });
});

describe('checking a destination URL', () => {
  it('accepts HTTPS URLs of public hosts and addresses', () => {
    for (const url of ['https://hooks.example.com/in?x=1', 'https://8.8.8.8:8443/', 'https://[2606:4700::1111]/', 'https://[64:ff9b::808:808]/']) {
      assert.equal(checkUrl(url, NONE), null, url);
    }
  });

  it('refuses what is not an HTTPS URL', () => {
    assert.deepEqual(checkUrl('not a url', NONE), { code: 'invalid_url', message: 'is not a valid URL' });
    assert.deepEqual(checkUrl('ftp://example.com/x', NONE), { code: 'invalid_url', message: 'must be an HTTPS URL' });
    assert.deepEqual(checkUrl('javascript:alert(1)', NONE), { code: 'invalid_url', message: 'must be an HTTPS URL' });
    assert.equal(checkUrl('http://example.com/hook', NONE)?.code, 'invalid_url');
    assert.match(checkUrl('http://example.com/hook', NONE)?.message ?? '', /^must be an HTTPS URL; plain http:\/\/ is allowed only if/);
  });

  it('refuses credentials in the URL', () => {
    assert.deepEqual(checkUrl('https://user:pw@example.com/', NONE), { code: 'invalid_url', message: 'must not contain a user name or password' });
    assert.equal(checkUrl('https://user@example.com/', NONE)?.code, 'invalid_url');
  });

  it('refuses literal addresses that are not public, in every spelling the URL parser accepts', () => {
    const cases: Array<[string, string]> = [
      ['https://10.0.0.5/hook', 'points to a private address (10.0.0.5)'],
      ['https://127.0.0.1:3000/', 'points to a loopback address (127.0.0.1)'],
      ['https://2130706433/', 'points to a loopback address (127.0.0.1)'],
      ['https://0x7f.1/', 'points to a loopback address (127.0.0.1)'],
      ['https://169.254.169.254/latest/meta-data', 'points to a link-local address (169.254.169.254)'],
      ['https://[::1]/', 'points to a loopback address (::1)'],
      ['https://[::ffff:127.0.0.1]/', 'points to a loopback address (::ffff:7f00:1)'],
      ['https://[fd00::1]/', 'points to a private address (fd00::1)'],
      ['https://0.0.0.0/', 'points to an unspecified address (0.0.0.0)'],
      ['https://[64:ff9b::192.168.0.1]/', 'points to a private address (64:ff9b::c0a8:1)'],
    ];
    for (const [url, message] of cases) {
      const problem = checkUrl(url, NONE);
      assert.equal(problem?.code, 'blocked_address', url);
      assert.ok(problem?.message.startsWith(`${message}, `), `${url}: ${problem?.message}`);
    }
  });

  it('refuses localhost names without looking them up', () => {
    assert.equal(checkUrl('https://localhost/', NONE)?.code, 'blocked_address');
    assert.match(checkUrl('https://localhost/', NONE)?.message ?? '', /^points to this server \(localhost\), /);
    assert.equal(checkUrl('https://api.LOCALHOST./', NONE)?.code, 'blocked_address');
  });

  it('lets the allow list admit local receivers, and plain HTTP only to them', () => {
    const policy = outboundPolicy({ outboundAllow: ['127.0.0.1', 'receiver.test', '10.0.0.0/8'] });
    assert.equal(checkUrl('http://127.0.0.1:8080/hook', policy), null);
    assert.equal(checkUrl('http://[::ffff:127.0.0.1]:8080/hook', policy), null);
    assert.equal(checkUrl('http://receiver.test/hook', policy), null);
    assert.equal(checkUrl('https://10.9.8.7/hook', policy), null);
    assert.equal(checkUrl('http://10.9.8.7/hook', policy), null);
    assert.equal(checkUrl('https://localhost/', outboundPolicy({ outboundAllow: ['localhost'] })), null);
    assert.equal(checkUrl('http://other.test/hook', policy)?.code, 'invalid_url');
    assert.equal(checkUrl('https://192.168.0.1/', policy)?.code, 'blocked_address');
  });

  it('names INTAKE_OUTBOUND_ALLOW and the entry that lifts each refusal a setting can lift, and that entry does', () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'https://127.0.0.1:8443/hook', 'https://localhost:8443/', 'http://localhost:8080/', 'https://[::1]/', 'https://10.0.0.5/x', 'http://receiver.test/hook']) {
      const problem = checkUrl(url, NONE);
      const entry = /INTAKE_OUTBOUND_ALLOW=(\S+)\)$/.exec(problem?.message ?? '')?.[1];
      assert.ok(entry, `${url}: ${problem?.message}`);
      assert.equal(checkUrl(url, outboundPolicy({ outboundAllow: [entry] })), null, url);
    }
    assert.doesNotMatch(checkUrl('ftp://example.com/x', NONE)?.message ?? '', /INTAKE_OUTBOUND_ALLOW/, 'no setting allows FTP');
  });
});
