/**
 * New Zealand bank account numbers: `BB-bbbb-AAAAAAA-SS(S)` (bank, branch, account base, suffix).
 *
 * Checks, in order (Inland Revenue's "bank account number validation" rules, the same ones
 * the banks publish for BECS): the shape, the bank's published branch ranges, then the bank's
 * check-digit algorithm (modulus 11 or 10 over the 18-digit form: bank 2, branch 4, base padded
 * to 8, suffix padded to 4). See docs/providers.md ("Bank account numbers").
 *
 * A maintained npm validator exists (`nz-bank-account-validator`); this small one stands in
 * until it is added as a dependency.
 */
type Algorithm = "A" | "B" | "C" | "D" | "E" | "F" | "G" | "X";

/** Bank → inclusive branch ranges. */
const BRANCHES: Record<string, [number, number][]> = {
  "01": [
    [1, 999],
    [1100, 1199],
    [1800, 1899],
  ],
  "02": [
    [1, 999],
    [1200, 1299],
  ],
  "03": [
    [1, 999],
    [1300, 1399],
    [1500, 1599],
    [1700, 1799],
    [1900, 1999],
  ],
  "04": [[2020, 2024]],
  "05": [[8884, 8889]],
  "06": [
    [1, 999],
    [1400, 1499],
  ],
  "08": [[6500, 6599]],
  "09": [[0, 0]],
  "10": [[5165, 5169]],
  "11": [
    [5000, 6499],
    [6600, 8999],
  ],
  "12": [
    [3000, 3299],
    [3400, 3499],
    [3600, 3699],
  ],
  "13": [[4900, 4999]],
  "14": [[4700, 4799]],
  "15": [[3900, 3999]],
  "16": [[4400, 4499]],
  "17": [[3300, 3399]],
  "18": [[3500, 3599]],
  "19": [[4600, 4649]],
  "20": [[4100, 4199]],
  "21": [[4800, 4899]],
  "22": [[4000, 4049]],
  "23": [[3700, 3799]],
  "24": [[4300, 4349]],
  "25": [[2500, 2599]],
  "26": [[2600, 2699]],
  "27": [[3800, 3849]],
  "28": [[2100, 2149]],
  "29": [[2150, 2299]],
  "30": [[2900, 2949]],
  "31": [[2800, 2849]],
  "33": [[6700, 6799]],
  "35": [[2400, 2499]],
  "38": [[9000, 9499]],
};

/** Weights over the 18 digits, the modulus, and whether products are folded to one digit. */
const ALGORITHMS: Record<Algorithm, { weights: number[]; modulus: number; fold: boolean }> = {
  A: { weights: [0, 0, 6, 3, 7, 9, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, fold: false },
  B: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, fold: false },
  C: { weights: [3, 7, 0, 0, 0, 0, 9, 1, 10, 5, 3, 4, 2, 1, 0, 0, 0, 0], modulus: 11, fold: false },
  D: { weights: [0, 0, 0, 0, 0, 0, 0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0], modulus: 11, fold: false },
  E: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 0, 0, 0, 1], modulus: 11, fold: true },
  F: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 7, 3, 1, 7, 3, 1, 0, 0, 0, 0], modulus: 10, fold: false },
  G: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 3, 7, 1, 3, 7, 1, 0, 3, 7, 1], modulus: 10, fold: true },
  X: { weights: new Array(18).fill(0), modulus: 1, fold: false },
};

function algorithmFor(bank: string, base: number): Algorithm {
  switch (bank) {
    case "08":
      return "D";
    case "09":
      return "E";
    case "25":
    case "33":
      return "F";
    case "26":
    case "28":
    case "29":
      return "G";
    case "31":
      return "X";
    default:
      return base < 990000 ? "A" : "B";
  }
}

export interface NzBankAccount {
  bank: string;
  branch: string;
  base: string;
  suffix: string;
  /** `BB-bbbb-AAAAAAA-SS` (suffix as given, two or three digits). */
  formatted: string;
}

/** Splits typed input (dashes, spaces, or none) into its parts; null when the shape is wrong. */
export function parseNzBankAccount(input: string): NzBankAccount | null {
  const text = input.trim();
  let parts: string[];
  if (/[-\s]/.test(text)) {
    parts = text.split(/[-\s]+/).filter(Boolean);
    if (parts.length !== 4) return null;
  } else if (/^\d{15,16}$/.test(text)) {
    parts = [text.slice(0, 2), text.slice(2, 6), text.slice(6, 13), text.slice(13)];
  } else {
    return null;
  }
  const [bank, branch, base, suffix] = parts;
  if (
    !/^\d{2}$/.test(bank) ||
    !/^\d{4}$/.test(branch) ||
    !/^\d{7,8}$/.test(base) ||
    !/^\d{2,3}$/.test(suffix)
  ) {
    return null;
  }
  // An 8-digit base must start with 0 to fit the 7-digit display form.
  const base7 = base.length === 8 ? (base.startsWith("0") ? base.slice(1) : null) : base;
  if (base7 === null) return null;
  return { bank, branch, base: base7, suffix, formatted: `${bank}-${branch}-${base7}-${suffix}` };
}

export type BankAccountProblem = "format" | "bank" | "branch" | "checksum";

/** Null when valid; otherwise which check failed. */
export function nzBankAccountProblem(input: string): BankAccountProblem | null {
  const account = parseNzBankAccount(input);
  if (!account) return "format";
  const ranges = BRANCHES[account.bank];
  if (!ranges) return "bank";
  const branch = Number(account.branch);
  if (!ranges.some(([from, to]) => branch >= from && branch <= to)) return "branch";
  const base = Number(account.base);
  const { weights, modulus, fold } = ALGORITHMS[algorithmFor(account.bank, base)];
  const digits =
    `${account.bank}${account.branch}${account.base.padStart(8, "0")}${account.suffix.padStart(4, "0")}`
      .split("")
      .map(Number);
  let sum = 0;
  digits.forEach((digit, i) => {
    let product = digit * weights[i];
    if (fold) while (product >= 10) product = Math.floor(product / 10) + (product % 10);
    sum += product;
  });
  return sum % modulus === 0 ? null : "checksum";
}

export function isValidNzBankAccount(input: string): boolean {
  return nzBankAccountProblem(input) === null;
}

/** Shows only the last digits: `••-••••-•••8389-00`. */
export function maskNzBankAccount(formatted: string): string {
  const account = parseNzBankAccount(formatted);
  if (!account) return "••••";
  return `••-••••-•••${account.base.slice(-4)}-${account.suffix}`;
}
