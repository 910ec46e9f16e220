import { type ReactNode, useCallback, useRef, useState } from "react";
import { toastApiError } from "../toast/toast";

export interface ActionOptions<Args extends unknown[] = never[], Result = unknown> {
  /** Toast title when it fails (the server's message is the text); "Something went wrong" if unset. */
  errorSummary?: ReactNode | ((error: unknown, ...args: Args) => ReactNode);
  /** Handles a failure instead of the error toast (e.g. a 422's messages put on fields). */
  onError?: (error: unknown, ...args: Args) => void;
  /**
   * The action's success leaves the page (a redirect to a bank or to Stripe, or on to the next
   * step): it stays busy until the page goes, so nothing is sent twice. A function decides by the
   * result (false: it stayed, e.g. it found something to fix first).
   */
  leavesPage?: boolean | ((result: Result) => boolean);
}

export interface Action<Args extends unknown[], Result> {
  /**
   * Runs the action. Never throws: a failure is shown (toast, or `onError`) and answers `undefined`.
   * A call while one is running is ignored (answers `undefined`), so a double click saves once.
   */
  run: (...args: Args) => Promise<Result | undefined>;
  /** True while it runs: put it on the button's `loading` (which also disables it). */
  running: boolean;
  /** The arguments of the call that is running (for "which row is busy"), else null. */
  runningWith: Args | null;
}

/**
 * A button's save (a call that is not a form's submit; forms use `submitHandler`): busy while it
 * runs, one at a time, and a failure shown as an error toast with the server's message.
 *
 * Not SWR's `useSWRMutation`: tried, it adds 1 KB gzipped to each site and none of its cache work
 * is wanted here (the saves hand their answer to the page, or `mutate` the read they change), while
 * "one at a time" and "busy until the page goes" still had to be written around it.
 */
export function useAction<Args extends unknown[], Result>(
  action: (...args: Args) => Promise<Result>,
  options: ActionOptions<Args, Result> = {},
): Action<Args, Result> {
  const latest = useRef({ action, options });
  latest.current = { action, options };
  const inFlight = useRef(false);
  const [runningWith, setRunningWith] = useState<Args | null>(null);
  const run = useCallback(async (...args: Args): Promise<Result | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setRunningWith(args);
    let leaving = false;
    try {
      const result = await latest.current.action(...args);
      const { leavesPage } = latest.current.options;
      leaving = typeof leavesPage === "function" ? leavesPage(result) : leavesPage === true;
      return result;
    } catch (error) {
      const { onError, errorSummary } = latest.current.options;
      if (onError) onError(error, ...args);
      else
        toastApiError(
          error,
          typeof errorSummary === "function" ? errorSummary(error, ...args) : errorSummary,
        );
      return undefined;
    } finally {
      if (!leaving) {
        inFlight.current = false;
        setRunningWith(null);
      }
    }
  }, []);
  return { run, running: runningWith !== null, runningWith };
}
