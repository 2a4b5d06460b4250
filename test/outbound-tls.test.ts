// send() over TLS: a local HTTPS receiver with a self-signed certificate for receiver.test, made
// with the machine's openssl at test time (skipped when openssl is not there).
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { outboundPolicy, send, type Resolver } from '../src/delivery/outbound/index.ts';
import { selfSignedCertificate } from './tls.ts';
import { rejection } from './outbound-helpers.ts';

const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

const credentials = selfSignedCertificate('receiver.test');

describe('sending over TLS', { skip: credentials ? false : 'openssl is not available' }, () => {
  const seen: Array<{ servername: string | false | null; host: string | undefined; body: string }> = [];
  let server: https.Server;
  let plainServer: http.Server;
  let port = 0;
  let plainPort = 0;
  const post = (host: string, p = port) => ({ url: `https://${host}:${p}/in`, headers: {}, body: 'signed', timeoutMs: 5_000 });

  before(async () => {
    server = https.createServer({ key: credentials?.key, cert: credentials?.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ servername: (req.socket as tls.TLSSocket).servername, host: req.headers.host, body: Buffer.concat(chunks).toString() });
        res.end('tls ok');
      });
    });
    plainServer = http.createServer((_req, res) => res.end('plain'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    plainPort = (plainServer.address() as net.AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    plainServer.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => plainServer.close(resolve));
  });

  it('connects to the pinned address but speaks to the host by name (SNI, Host, certificate)', async () => {
    const response = await send(post('receiver.test'), outboundPolicy({ outboundAllow: ['receiver.test'] }), { resolve: toLoopback, ca: credentials?.cert });
    assert.equal(response.status, 200);
    assert.equal(response.bodyStart, 'tls ok');
    assert.deepEqual(seen.at(-1), { servername: 'receiver.test', host: `receiver.test:${port}`, body: 'signed' });
  });

  it('lets a host through whose address lies in an allowed range', async () => {
    const response = await send(post('receiver.test'), outboundPolicy({ outboundAllow: ['127.0.0.0/8'] }), { resolve: toLoopback, ca: credentials?.cert });
    assert.equal(response.status, 200);
  });

  it('fails as tls_failed when the certificate is not trusted', async () => {
    const error = await rejection(send(post('receiver.test'), outboundPolicy({ outboundAllow: ['receiver.test'] }), { resolve: toLoopback }));
    assert.equal(error.code, 'tls_failed');
    assert.match(error.message, /^TLS with receiver\.test failed: self[- ]signed certificate/);
  });

  it('fails as tls_failed when the certificate names another host', async () => {
    const error = await rejection(send(post('other.test'), outboundPolicy({ outboundAllow: ['other.test'] }), { resolve: toLoopback, ca: credentials?.cert }));
    assert.equal(error.code, 'tls_failed');
    assert.match(error.message, /altnames/);
  });

  it('fails as tls_failed when the server does not speak TLS', async () => {
    const error = await rejection(send(post('receiver.test', plainPort), outboundPolicy({ outboundAllow: ['receiver.test'] }), { resolve: toLoopback, ca: credentials?.cert }));
    assert.equal(error.code, 'tls_failed');
  });
});
