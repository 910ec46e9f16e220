/**
 * The API for `npm run bench -- --load`, in its own process (tests/bench/load.ts forks it) so the
 * load generator does not share the server's event loop. Serves the local API (`serveApi`, as
 * `npm start` runs it) on LOAD_PORT and says so over IPC.
 */
const { serveApi } = await import("../../packages/functions/src/local/server");
const server = await serveApi(Number(process.env.LOAD_PORT));
process.send?.({ url: server.url });
process.on("disconnect", () => {
  void server.close();
  process.exit(0);
});

export {};
