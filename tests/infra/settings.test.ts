import { describe, expect, it } from "vitest";
import { rateExpression } from "../../infra/jobs";
import { heartbeatMinutes } from "../../infra/monitoring";
import {
  deploySettings,
  emailAddress,
  isProtectedStage,
  logRetentionDays,
  sharedParentDomain,
} from "../../infra/settings";

describe("deploy settings", () => {
  it("derives the SES identity from the sender's domain", () => {
    expect(emailAddress("Kia Ora Gym <no-reply@kiaoragym.nz>")).toBe("no-reply@kiaoragym.nz");
    expect(emailAddress("no-reply@kiaoragym.nz")).toBe("no-reply@kiaoragym.nz");
    expect(deploySettings({ EMAIL_FROM: "Gym <a@mail.gym.nz>" }).sesIdentity).toBe("mail.gym.nz");
    expect(deploySettings({ EMAIL_FROM: "a@mail.gym.nz", SES_IDENTITY: "gym.nz" }).sesIdentity).toBe(
      "gym.nz",
    );
  });

  it("shares the session cookie only between sibling hosts, never on a public suffix", () => {
    expect(sharedParentDomain("staff.kiaoragym.nz", "join.kiaoragym.nz")).toBe("kiaoragym.nz");
    expect(sharedParentDomain("staff.gym.co.nz", "join.gym.co.nz")).toBe("gym.co.nz");
    expect(sharedParentDomain("staff.a.co.nz", "join.b.co.nz")).toBeUndefined();
    expect(sharedParentDomain("gym.nz", "join.gym.nz")).toBeUndefined();
    expect(deploySettings({ STAFF_DOMAIN: "staff.gym.nz", JOIN_DOMAIN: "join.gym.nz" }).cookieDomain).toBe(
      "gym.nz",
    );
    expect(deploySettings({ STAFF_DOMAIN: "staff.gym.nz" }).cookieDomain).toBeUndefined();
    expect(
      deploySettings({ STAFF_DOMAIN: "staff.gym.nz", JOIN_DOMAIN: "join.gym.nz", COOKIE_DOMAIN: "x.nz" })
        .cookieDomain,
    ).toBe("x.nz");
  });

  it("treats blank variables as unset", () => {
    expect(deploySettings({ STAFF_DOMAIN: "  ", EMAIL_FROM: "" })).toMatchObject({
      staffDomain: undefined,
      emailFrom: undefined,
    });
  });

  it("protects prod and production unless told otherwise", () => {
    expect(isProtectedStage("prod", {})).toBe(true);
    expect(isProtectedStage("production", {})).toBe(true);
    expect(isProtectedStage("pr-12", {})).toBe(false);
    expect(isProtectedStage("live", { PROTECTED_STAGES: "live, staging" })).toBe(true);
    expect(isProtectedStage("prod", { PROTECTED_STAGES: "live" })).toBe(false);
  });
});

describe("job schedules", () => {
  it("writes EventBridge rate expressions", () => {
    expect(rateExpression(1)).toBe("rate(1 minute)");
    expect(rateExpression(15)).toBe("rate(15 minutes)");
    expect(() => rateExpression(0)).toThrow();
    expect(() => rateExpression(1.5)).toThrow();
  });
});

describe("operations settings", () => {
  it("reads the alarm emails and the log retention per stage", () => {
    expect(deploySettings({}).alarmEmails).toEqual([]);
    expect(deploySettings({ ALARM_EMAIL: " ops@gym.nz, ,owner@gym.nz " }).alarmEmails).toEqual([
      "ops@gym.nz",
      "owner@gym.nz",
    ]);
    expect(logRetentionDays("prod", {})).toBe(365);
    expect(logRetentionDays("pr-12", {})).toBe(14);
    expect(logRetentionDays("pr-12", { LOG_RETENTION_DAYS: "30" })).toBe(30);
    expect(() => logRetentionDays("prod", { LOG_RETENTION_DAYS: "100" })).toThrow(/LOG_RETENTION_DAYS/);
  });

  it("watches a job's heartbeat over twice its cadence, at most the day CloudWatch allows", () => {
    expect(heartbeatMinutes(15)).toBe(30);
    expect(heartbeatMinutes(60)).toBe(120);
    expect(heartbeatMinutes(720)).toBe(1440);
    expect(heartbeatMinutes(1440)).toBe(1440);
  });
});
