/**
 * The ten slowest files of a whole `npm test`: its vitest runs each appended their files'
 * durations to TEST_DURATIONS_FILE (tests/support/slowest-reporter.ts); bootstrap.mjs runs this
 * once they have all ended.
 */
import { printSlowest, readDurations } from "./slowest-reporter";

const file = process.env.TEST_DURATIONS_FILE;
if (file) printSlowest(readDurations(file));
