// The baseline of the submit benchmark: a bare Fastify route on the same Node that parses the JSON
// body and answers 201 with it. Intake's figures are quoted as ratios to this one's.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/submit', async (request, reply) => reply.code(201).send(request.body));
app.get('/healthz', async () => ({ status: 'ok' }));

const shutdown = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
