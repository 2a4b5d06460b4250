// The small wrapper the conformance suite runs through: its client sends no credentials, so this
// loopback proxy adds `Authorization: Bearer <token>` to every request and passes the rest (Origin
// included, which the DNS-rebinding scenario forges) to Intake's /mcp unchanged.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startTokenProxy(target: string, token: string) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ['host', 'connection', 'content-length'].includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('authorization', `Bearer ${token}`);
    const upstream = await fetch(new URL(req.url ?? '/', target), {
      method: req.method, headers, ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    const outHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding') outHeaders[name] = value;
    });
    res.writeHead(upstream.status, outHeaders).end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** As the suite must see it: a localhost URL (its DNS-rebinding scenario runs only against one). */
    url: `http://localhost:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
