import { type ReactNode, useCallback, useId, useRef, useState } from "react";
import useSWRMutation from "swr/mutation";
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
 * runs, one at a time, and a failure shown as an error toast with the server's message. Built on
 * SWR's `useSWRMutation`, which tracks the call and drops its result if the component has gone.
 */
export function useAction<Args extends unknown[], Result>(
  action: (...args: Args) => Promise<Result>,
  options: ActionOptions<Args, Result> = {},
): Action<Args, Result> {
  const key = `action:${useId()}`;
  const latest = useRef({ action, options });
  latest.current = { action, options };
  const inFlight = useRef(false);
  const [runningWith, setRunningWith] = useState<Args | null>(null);
  // SWR types `trigger` as a union over whether the argument may be left out; it is always given here.
  const { trigger } = useSWRMutation<Result, unknown, string, Args>(
    key,
    (_key: string, { arg }: { arg: Args }) => latest.current.action(...arg),
    { throwOnError: true, revalidate: false, populateCache: false },
  );
  const run = useCallback(
    async (...args: Args): Promise<Result | undefined> => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      setRunningWith(args);
      let leaving = false;
      try {
        const result = await (trigger as (arg: Args) => Promise<Result>)(args);
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
    },
    [trigger],
  );
  return { run, running: runningWith !== null, runningWith };
}
