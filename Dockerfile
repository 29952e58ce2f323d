# syntax=docker/dockerfile:1
# The chatbot server as a container image: built in one stage, run in a slim one
# as an unprivileged user, with its data in a volume.
#   docker build -t chatbot .
#   docker run -p 3000:3000 -v chatbot-data:/data -e BOT_FUNCTION_KEY=… chatbot
# Node 26 is the current LTS line, the one CI runs the whole suite on (README, "Node").

FROM node:26.10.0-bookworm AS build
WORKDIR /app
# Dependencies first, so a code change does not reinstall them. .npmrc tells onnxruntime-node (a
# development dependency: tests and benchmarks of the local sentence encoder) not to download CUDA.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
# The widget bundle and the compiled server, then only what runs in production.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:26.10.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The demo bot is the default definition; mount your own and set BOT_DEFINITION.
COPY --from=build /app/demo ./demo
# The data folder belongs to the unprivileged user the server runs as (node, uid 1000).
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
# Most of a restart's CPU before it listens is compiling the modules it loads. Node keeps their
# compiled code here; importing the entry (which starts nothing) fills it while the image builds,
# so a new container's first start, and every restart after a crash, skips that work.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN node --input-type=module -e "await import('/app/dist/server/main.js')" && chown -R node:node /app/.compile-cache
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness: the process answers /healthz. Readiness (the store answers) is /readyz, for an orchestrator.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM from `docker stop` closes the server cleanly (main.ts).
CMD ["node", "dist/server/main.js"]
