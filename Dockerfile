# syntax=docker/dockerfile:1
# The openpis image: the compiled service and the operator CLI on Node 20, production dependencies only, run as the
# unprivileged `node` user. How to build and run it: docs/operations.md#containers. There is no container engine
# where this project is tested: test/ship/image-steps.test.ts performs these steps on a clean clone and pays through
# the result, and test/ship/container-files.test.ts keeps this file, compose.yaml and that test saying the same
# commands, ports, roles and settings (test/ship/image-steps.ts holds them).

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency, TypeScript among them (the root's `prepare` would build too early: scripts off),
#    then the sandbox banks' package (packages/sandbox-bank) and src/ compiled, each to its dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --workspaces=false --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY packages/sandbox-bank packages/sandbox-bank
COPY src src
RUN npm run build

# 2. Production dependencies only. `prepare` must not run here (TypeScript is a development dependency), so scripts
#    are off for the install and `npm rebuild` then runs the dependencies' own (better-sqlite3's native module; it
#    compiles from source when no prebuilt binary can be downloaded, hence the compilers, which stay in this stage).
FROM ${NODE_IMAGE} AS dependencies
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund
RUN npm rebuild --workspaces=false

# 3. The image: Node, the production dependencies, the compiled code and the CLI; no compiler, no TypeScript, no tsx.
#    The sandbox banks' package is where node_modules/@openpis/sandbox-bank (a link the install made) points: its
#    manifest and its compiled code; its dependencies are the service's too, in node_modules.
FROM ${NODE_IMAGE}
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sandbox-bank/package.json packages/sandbox-bank/package.json
COPY --from=dependencies /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/packages/sandbox-bank/dist packages/sandbox-bank/dist
COPY bin bin
# `openpis …` on the PATH for operators (docker compose run --rm api openpis clients list); the SQLite folder for a
# single-container trial, owned by the user the service runs as.
RUN ln -s /app/bin/openpis.mjs /usr/local/bin/openpis \
  && mkdir -p /data \
  && chown node:node /data
USER node
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/openpis.sqlite
EXPOSE 8080
# Ready = the database answers and every migration of this build is applied (docs/operations.md#health-and-metrics).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((answer) => process.exit(answer.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: Node is PID 1 and receives SIGTERM itself, and the service shuts down within SHUTDOWN_TIMEOUT_MS.
CMD ["node", "--enable-source-maps", "dist/server.js"]
