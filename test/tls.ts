// A self-signed certificate for a host name, made with the machine's openssl at test time, for
// local HTTPS receivers; null when openssl is not there (the tests that need it then skip).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function selfSignedCertificate(host: string): { key: string; cert: string } | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`,
    ], { stdio: 'ignore' });
    return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  } catch {
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
