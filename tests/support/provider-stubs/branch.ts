import { type Stub, startStub } from "./server";

/** Branch's app settings read: `GET /v1/app/{branch_key}?branch_secret=`. */
export async function startBranchStub(
  branchKey = "key_test_stubkey",
  branchSecret = "secret_stub",
): Promise<Stub & { branchKey: string; branchSecret: string }> {
  const stub = await startStub((req) => {
    if (req.method === "GET" && req.path === `/v1/app/${branchKey}`) {
      if (req.query.get("branch_secret") !== branchSecret)
        return { status: 403, body: { error: { code: 403, message: "Authentication failed" } } };
      return {
        status: 200,
        body: { app_id: "1234567890", app_name: "Stub member app", branch_key: branchKey },
      };
    }
    if (req.method === "GET" && req.path.startsWith("/v1/app/"))
      return { status: 404, body: { error: { code: 404, message: "Not found" } } };
    return null;
  });
  return { ...stub, branchKey, branchSecret };
}
