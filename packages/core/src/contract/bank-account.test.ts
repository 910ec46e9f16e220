import { describe, expect, it } from "vitest";
import {
  isValidNzBankAccount,
  maskNzBankAccount,
  nzBankAccountProblem,
  parseNzBankAccount,
} from "./bank-account";

describe("NZ bank account numbers", () => {
  it("accepts published valid examples (algorithms A and B, two- and three-digit suffixes)", () => {
    for (const number of [
      "01-0902-0068389-00", // IRD's algorithm A example
      "12-3140-0171323-50",
      "08-6523-1954512-001", // algorithm D
      "26-2600-0320871-032", // algorithm G
      "01 0902 0068389 00",
      "010902006838900",
    ]) {
      expect(nzBankAccountProblem(number), number).toBeNull();
    }
  });

  it("says which check fails", () => {
    expect(nzBankAccountProblem("01-0902-0068389")).toBe("format");
    expect(nzBankAccountProblem("abc")).toBe("format");
    expect(nzBankAccountProblem("")).toBe("format");
    expect(nzBankAccountProblem("07-0902-0068389-00")).toBe("bank");
    expect(nzBankAccountProblem("01-2000-0068389-00")).toBe("branch");
    expect(nzBankAccountProblem("01-0902-0068388-00")).toBe("checksum");
    expect(nzBankAccountProblem("12-3140-0171324-50")).toBe("checksum");
  });

  it("normalises the display form and masks all but the last digits", () => {
    expect(parseNzBankAccount("01 0902 00068389 00")?.formatted).toBe("01-0902-0068389-00");
    expect(isValidNzBankAccount("01-0902-00068389-00")).toBe(true);
    expect(maskNzBankAccount("01-0902-0068389-00")).toBe("••-••••-•••8389-00");
  });
});
