# syntax=docker/dockerfile:1
#
# Switchyard container image: `docker build -t switchyard .`
#
# Base image: Node 26, the Active LTS line since 2026-10-28 (https://github.com/nodejs/Release#release-schedule),
# on Debian 13 "trixie" slim, the current Debian stable and the default of the official node:26 images.
# Node 24 (maintenance LTS until 2028-04-30) works too: `--build-arg NODE_VERSION=24`; better-sqlite3 12.x
# lists both in its engines. Build and runtime stages use the same base, so the native module is compiled
# against the glibc and Node ABI it runs on. For reproducible builds, pin the digest (node:26-trixie-slim@sha256:...).
ARG NODE_VERSION=26
ARG DEBIAN_RELEASE=trixie

# ---------------------------------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS build

# Toolchain for better-sqlite3's native addon (node-gyp).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Node's headers ship in the image under /usr/local/include/node: node-gyp need not download them.
ENV npm_config_nodedir=/usr/local

COPY package.json package-lock.json .npmrc ./
# --ignore-scripts: package.json's `prepare` script runs the build, which cannot work before the source is
# copied, and copying the source first would re-run the whole install on every source change. It also keeps
# third-party install scripts from running. The one we need, better-sqlite3's native build, runs next, from
# the source in the integrity-checked npm tarball rather than a prebuilt binary downloaded from GitHub
# (--build-from-source is better-sqlite3's documented switch; npm 11 warns it does not know it, and passes it on).
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
RUN npm rebuild better-sqlite3 --build-from-source

COPY tsconfig.json tsconfig.build.json ./
COPY schema ./schema
COPY src ./src
# The SOC console's front end: `npm run build` bundles it into dist/console/ with Vite (a dev dependency).
COPY console ./console
# Then drop dev dependencies and better-sqlite3's sources and intermediate objects (about 25 MB; only
# build/Release/better_sqlite3.node is loaded), and check that the addon still loads.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src build/deps build/Release/obj build/Release/obj.target build/Release/sqlite3.a \
    build/Release/test_extension.node \
  && node -e "require('better-sqlite3')(':memory:').close()"

# ---------------------------------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS runtime

LABEL org.opencontainers.image.title="switchyard" \
  org.opencontainers.image.description="Webhook-routing daemon for SOC teams" \
  org.opencontainers.image.licenses="Apache-2.0"

# tini as PID 1: node is not written to be an init process (it does not reap orphaned children, and the
# kernel drops signals PID 1 has no handler for). tini forwards SIGTERM/SIGINT to node, whose handlers finish
# in-flight requests and commits, and reaps children. Built in rather than relying on `docker run --init`,
# which not every runtime offers (Kubernetes has no equivalent); with --init as well it is merely redundant.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
  SWITCHYARD_SQLITE_PATH=/data/switchyard.db

WORKDIR /app
# Owned by root and not writable by the `node` user: the daemon cannot modify its own code or config.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY schema ./schema
COPY config ./config
COPY rules.example.yaml ./

# The journal lives on a volume owned by the unprivileged user (a new named volume inherits this ownership).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

USER node
EXPOSE 8080

# node itself, since slim images have no curl or wget. Follows SWITCHYARD_PORT if the port is overridden.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SWITCHYARD_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The default config reads /app/rules.example.yaml, which needs its ${VAR}s set; mount your own rules instead:
#   docker run -d --name switchyard -p 8080:8080 -v switchyard-data:/data \
#     -v "$PWD/rules.yaml:/etc/switchyard/rules.yaml:ro" -e SWITCHYARD_RULES=/etc/switchyard/rules.yaml \
#     -e MONITOR_WEBHOOK_SECRET=... switchyard
# SWITCHYARD_CONFIG or a different --config points at a config of your own; `docker kill -s HUP switchyard`
# reloads the rules.
# A 2 MB young generation instead of V8's 16: an idle daemon holds about 10 MB less, one under load about 35 MB
# less, at no CPU cost the benchmark could tell (docs/decisions/load-optional-modules-on-use.md).
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-semi-space-size=2", "dist/cli/main.js"]
CMD ["serve", "--config", "/app/config/switchyard.yaml"]
