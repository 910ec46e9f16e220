import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, started first when files run side by side (bootstrap.mjs runs the
 * projects other than e2e one file more than the cores at a time; a whole `npm test` runs the simulation beside the e2e run
 * instead), so no long file is left running alone at the end. Vitest
 * orders them itself by the last run's durations when it has them (node_modules/.vite); on a fresh
 * clone it has none and starts large files first, and these are small files that run long.
 * The e2e files keep vitest's order: they run one at a time, sharing one product.
 */
const slowFirst = [
  "tests/sim/simulate.test.ts",
  "tests/infra/stacks.test.ts",
  "tests/infra/bundle.test.ts",
  "packages/functions/src/entries.test.ts",
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = slowFirst.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 || file.project.name === "e2e" ? slowFirst.length : at;
    };
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
