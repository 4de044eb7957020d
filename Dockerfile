# syntax=docker/dockerfile:1
# One image for every process: the default command runs the api; compose overrides it for the worker,
# the simulator and the one-shot migration.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY migrations ./migrations
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and only read by the app: the running process cannot rewrite its own code.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# A 2 MiB young generation (Node 20 reserves 32 MiB by default) and a heap limit that makes V8 collect old
# garbage at 1.3x the live heap instead of 4x (README, Memory).
CMD ["node", "--max-semi-space-size=2", "--max-old-space-size=384", "dist/apps/api/src/main.js"]
