# canonry in a container: `docker build -t canonry .` then
# `docker run -p 7070:7070 -v canonry-data:/data canonry` (the embedded SQLite store in /data), or
# `docker compose up` for canonry on PostgreSQL (compose.yaml). Configuration is the CANONRY_*
# environment (docs/configuration.md); keys and the SQLite file live in the /data volume.

# Production dependencies, with the toolchain better-sqlite3 falls back to when no prebuilt binary fits.
FROM node:20-slim AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts skips canonry's own `prepare` (a build, which needs the dev dependencies);
# the drivers' install scripts run in the rebuild.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

# The build: TypeScript to dist/, the workbench to dist/web.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY web ./web
# The workbench's Kernel view starts from examples/refund/protocol.json, which it imports.
COPY examples ./examples
RUN npm run build

# The image: no compiler, no dev dependencies, not root.
FROM node:20-slim
ENV NODE_ENV=production \
  CANONRY_DATA=/data \
  CANONRY_HOST=0.0.0.0 \
  CANONRY_PORT=7070
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json LICENSE README.md ./
COPY examples ./examples
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 7070
# Liveness: /healthz answers without a query (503 while a chain is quarantined); /readyz checks the store.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.CANONRY_PORT||7070)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli/main.js"]
CMD ["serve"]
