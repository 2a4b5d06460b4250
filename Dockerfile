# Intake: the API (`serve`, the default) or the workers alone (`worker`), from one image.
#   docker build -t intake .
#   docker run -p 3000:3000 -v intake-data:/data intake          # embedded SQLite in /data
# See docker-compose.yml for PostgreSQL, Redis, several API and worker processes and a proxy.
FROM node:24-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    INTAKE_DATA_DIR=/data

WORKDIR /app

# Runtime dependencies only: Node 24 runs the TypeScript sources itself (type stripping), so
# neither a build step nor `typescript` is needed. No production dependency has an install script.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY src ./src

# The embedded SQLite database lives in /data; with DATABASE_URL set the volume stays empty.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node

EXPOSE 3000
# For `serve`. A `worker` container listens on no port: turn the check off for it (the compose file does).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The same Node flags as `npm start` (package.json; docs/production.md, Memory, says why).
ENTRYPOINT ["node", "--max-semi-space-size=8", "--max-old-space-size=512", "--import", "./src/compile-cache.mjs", "src/cli.ts"]
CMD ["serve"]
