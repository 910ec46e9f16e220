/**
 * The API for `npm run bench -- --load`, in its own process (tests/bench/load.ts forks it) so the
 * load generator does not share the server's event loop. Serves the local API (`serveApi`, as
 * `npm start` runs it) on LOAD_PORT and says so over IPC. It counts the DynamoDB requests the API
 * sends (tests/bench/measure.ts): the message "count" starts a count afresh, and is answered with
 * the count since the last one.
 */
import { countDynamoRequests, type RequestCount } from "./measure";

const { serveApi } = await import("../../packages/functions/src/local/server");
const counts: RequestCount = await countDynamoRequests();
const server = await serveApi(Number(process.env.LOAD_PORT));
process.send?.({ url: server.url });
process.on("message", (message) => {
  if (message !== "count") return;
  process.send?.({ count: { ...counts } });
  Object.assign(counts, { requests: 0, scans: 0, items: 0, byCommand: {}, aside: {}, counting: true });
});
process.on("disconnect", () => {
  void server.close();
  process.exit(0);
});
