/** Accounts against DynamoDB Local: one account per email address, even when two sign-ups race. */
import { describe, expect, it } from "vitest";
import { useTestApi } from "../../../../tests/support/api";
import { ConflictError } from "../errors";
import { createUser, findUserByEmail } from "./service";

useTestApi();

describe("creating a user", () => {
  it("makes one account when two sign-ups with the same new address arrive at once", async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => createUser({ email: "Race@Example.com", name: `Racer ${i}` })),
    );
    const made = attempts.filter((a) => a.status === "fulfilled");
    expect(made).toHaveLength(1);
    for (const failed of attempts.filter((a) => a.status === "rejected"))
      expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
    const user = await findUserByEmail("race@example.com");
    expect(user?.user_id).toBe((made[0] as PromiseFulfilledResult<{ user_id: string }>).value.user_id);
  });
});
