import { type ReactNode, useCallback, useId, useRef, useState } from "react";
import useSWRMutation from "swr/mutation";
import { toastApiError } from "../toast/toast";

export interface ActionOptions<Args extends unknown[] = never[]> {
  /** Toast title when it fails (the server's message is the text); "Something went wrong" if unset. */
  errorSummary?: ReactNode | ((error: unknown, ...args: Args) => ReactNode);
  /** Handles a failure instead of the error toast (e.g. a 422's messages put on fields). */
  onError?: (error: unknown, ...args: Args) => void;
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
  options: ActionOptions<Args> = {},
): Action<Args, Result> {
  const key = `action:${useId()}`;
  const latest = useRef({ action, options });
  latest.current = { action, options };
  const inFlight = useRef(false);
  const [runningWith, setRunningWith] = useState<Args | null>(null);
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
      try {
        return await trigger(args);
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
        inFlight.current = false;
        setRunningWith(null);
      }
    },
    [trigger],
  );
  return { run, running: runningWith !== null, runningWith };
}
