# syntax=docker/dockerfile:1
# The Djambi game server (Colyseus + Express, serving the built client), as run by
# docker-compose.yml (docs/DEPLOYMENT.md). Build: docker build -t djambi-server .
#
# Stage 1 compiles everything (better-sqlite3 is built from source here if its prebuilt binary
# cannot be fetched: the full bookworm image has python3, make and g++), then drops the dev
# dependencies. Stage 2 is the slim runtime on the same Debian release (same glibc for the
# native addon; not alpine), running as the unprivileged `node` user.

FROM node:20.20.2-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY client/package.json client/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY shared shared
COPY server server
COPY client client
COPY tools tools
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20.20.2-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=2567 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/shared/package.json shared/
COPY --from=build --chown=node:node /app/shared/dist shared/dist
COPY --from=build --chown=node:node /app/server/package.json server/
COPY --from=build --chown=node:node /app/server/dist server/dist
COPY --from=build --chown=node:node /app/client/package.json client/
COPY --from=build --chown=node:node /app/client/dist client/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 2567
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||2567)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop): clients are told `server_restart`, the store is closed, exit 0.
CMD ["node", "--max-semi-space-size=64", "--min-semi-space-size=64", "server/dist/index.js"]
