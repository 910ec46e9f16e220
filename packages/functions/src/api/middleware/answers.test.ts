import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorResponses, json } from "../respond";
import { answerProblem } from "./answers";

const declared = { 200: json(z.object({ data: z.object({ id: z.string() }) })), 404: errorResponses[404] };
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("the test-mode answer check", () => {
  it("passes an answer that matches the schema declared for its status", async () => {
    expect(await answerProblem(answer(200, { data: { id: "a" } }), declared)).toBeNull();
    expect(
      await answerProblem(answer(404, { message: "Not found", error: "not_found" }), declared),
    ).toBeNull();
  });

  it("names what does not match", async () => {
    expect(await answerProblem(answer(200, { data: { ident: "a" } }), declared)).toContain("data.id");
    expect(await answerProblem(answer(201, { data: { id: "a" } }), declared)).toBe(
      "status 201 is not declared",
    );
    expect(await answerProblem(new Response("hi", { status: 200 }), declared)).toMatch(/declares JSON/);
  });

  it("passes another media type the status declares beside its JSON (a CSV)", async () => {
    const both = {
      200: { ...json(z.object({})), content: { ...json(z.object({})).content, "text/csv": {} } },
    };
    const csv = new Response("a,b\n", {
      status: 200,
      headers: { "Content-Type": "text/csv; charset=utf-8" },
    });
    expect(await answerProblem(csv, both)).toBeNull();
    expect(await answerProblem(csv, declared)).toMatch(/declares JSON/);
  });

  it("holds undeclared errors to the error shape", async () => {
    expect(await answerProblem(answer(401, { message: "Sign in" }), declared)).toBeNull();
    expect(await answerProblem(answer(409, { oops: true }), declared)).toContain("message");
  });
});
