/** Local stand-ins of the providers' HTTP APIs, for testing the real adapters (all on 127.0.0.1). */
export { type AkahuStub, startAkahuStub } from "./akahu";
export { startBranchStub } from "./branch";
export { type KisiStub, startKisiStub } from "./kisi";
export { type Stub, type StubRequest, startStub } from "./server";
export { type StripeStub, startStripeStub } from "./stripe";
