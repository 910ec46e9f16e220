/** Local stand-ins of the providers' HTTP APIs, for testing the real adapters (all on 127.0.0.1). */
export { startAkahuStub, type AkahuStub } from "./akahu";
export { startBranchStub } from "./branch";
export { startKisiStub, type KisiStub } from "./kisi";
export { startStub, type Stub, type StubRequest } from "./server";
export { startStripeStub, type StripeStub } from "./stripe";
