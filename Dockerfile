# The product's processes in one image: `docker run ledgerwise <gateway|projector|worker|analytics>`.
# Built from the lock file with npm ci; runs as the unprivileged `node` user. docs/DEPLOY.md says how to
# run several of each role.

# Production dependencies (better-sqlite3 compiles here, so the toolchain stays out of the final image).
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Every dependency, to build the web app.
FROM prod-deps AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run web:build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    GATEWAY_HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json tsconfig.json ./
COPY --chown=root:root contracts ./contracts
COPY --chown=root:root domain ./domain
COPY --chown=root:root commands ./commands
COPY --chown=root:root projections ./projections
COPY --chown=root:root workflows ./workflows
COPY --chown=root:root gateway ./gateway
COPY --chown=root:root cli ./cli
COPY --from=build --chown=root:root /app/web/dist ./web/dist
# The code is root's and read-only to the process; only its data folder is writable.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 3001 3002 3003
ENTRYPOINT ["node", "--import", "tsx", "cli/ledgerwise.ts"]
CMD ["gateway"]
