import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, isApiError } from "../api/client";
import { writeGuestFlag } from "./guest-flag";
import type { ActiveSubscription, CurrentUser, MeState } from "./types";

export const ME_KEY = "/api/me";
export const TWO_FACTOR_CODE = "not_two_factor_authenticated";

/** `GET /api/me` as a {@link MeState}: never throws, so the state always holds the latest answer. */
export async function fetchMe(): Promise<MeState> {
  try {
    return { status: "signed_in", user: await api.get<CurrentUser>(ME_KEY) };
  } catch (error) {
    if (isApiError(error) && error.status === 401) return { status: "guest" };
    if (isApiError(error) && error.status === 400 && error.code === TWO_FACTOR_CODE) {
      return { status: "two_factor" };
    }
    return { status: "failed", error };
  }
}

export interface LoginInput {
  email: string;
  password: string;
}

export interface LoginResult {
  /** True when a code was emailed and must be entered before the session is usable. */
  two_factor_required: boolean;
}

export interface AuthContextValue {
  /** The last answer of `GET /api/me`; undefined until the first one arrives. */
  me: MeState | undefined;
  /** The signed-in user, or null. */
  user: CurrentUser | null;
  /** True once `GET /api/me` has answered at least once. */
  gotMe: boolean;
  /** True when the last answer said nobody is (fully) signed in. */
  isGuest: boolean;
  /** Set by {@link AuthContextValue.getActiveSubscription}; null when there is none. */
  activeSubscription: ActiveSubscription | null;
  /**
   * Counts answers of `GET /api/me` and local changes (switches, sign-out): guards use it to
   * tell a state learned since they mounted from one that was already cached.
   */
  generation: number;
  /** Asks the API again and returns the new state. */
  getCurrentUser: () => Promise<MeState>;
  /** POST /api/login; the session then waits for the emailed code. */
  login: (input: LoginInput) => Promise<LoginResult>;
  /** POST /api/two-factor-authentication, then reloads the user. */
  validateTwoFactorCode: (code: string) => Promise<MeState>;
  /** POST /api/email/resend. */
  resendCode: () => Promise<string>;
  /** POST /api/logout; the local state becomes a guest's even when the call fails. */
  logout: () => Promise<void>;
  /** GET /api/me/active-subscription; a 404 means none. */
  getActiveSubscription: () => Promise<ActiveSubscription | null>;
  /** Replaces the user (e.g. with the answer of a switch call) without asking again. */
  setUser: (user: CurrentUser) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export interface AuthProviderProps {
  children: ReactNode;
}

/**
 * The client auth state (spec 000 §4): the user, the got-me and guest flags, the active
 * subscription, and the actions. One SWR entry (`/api/me`) holds the user, so any component
 * reading it stays in step and a focus revalidation notices a session that ended elsewhere.
 */
export function AuthProvider({ children }: AuthProviderProps) {
  const generationRef = useRef(0);
  const { mutate: globalMutate } = useSWRConfig();
  const { data: me, mutate } = useSWR<MeState>(
    ME_KEY,
    async () => {
      const state = await fetchMe();
      generationRef.current += 1;
      if (state.status === "signed_in") writeGuestFlag("isNotGuest");
      else if (state.status === "guest") writeGuestFlag("isGuest");
      return state;
    },
    { shouldRetryOnError: false, revalidateOnFocus: true, dedupingInterval: 1000 },
  );
  const [activeSubscription, setActiveSubscription] = useState<ActiveSubscription | null>(null);

  const getCurrentUser = useCallback(async () => (await mutate()) ?? { status: "guest" as const }, [mutate]);

  const setUser = useCallback(
    (user: CurrentUser) => {
      writeGuestFlag("isNotGuest");
      generationRef.current += 1; // a fresh answer (the switch call's), as good as asking again
      void mutate({ status: "signed_in", user }, { revalidate: false });
    },
    [mutate],
  );

  const login = useCallback(
    async (input: LoginInput) => {
      const result = await api.post<LoginResult>("/api/login", input);
      await mutate();
      return result;
    },
    [mutate],
  );

  const validateTwoFactorCode = useCallback(
    async (code: string) => {
      await api.post("/api/two-factor-authentication", { code });
      return getCurrentUser();
    },
    [getCurrentUser],
  );

  const resendCode = useCallback(async () => {
    const result = await api.post<{ message?: string }>("/api/email/resend");
    return result?.message ?? "We've emailed you a new code.";
  }, []);

  const logout = useCallback(async () => {
    try {
      await api.post("/api/logout");
    } catch {
      // Already signed out (401) or unreachable: forget the session here either way.
    } finally {
      writeGuestFlag("isGuest");
      setActiveSubscription(null);
      // Drop every cached answer that belonged to the signed-in person, then mark a guest.
      await globalMutate((key) => key !== ME_KEY, undefined, { revalidate: false });
      generationRef.current += 1; // known without asking: nobody is signed in here now
      await mutate({ status: "guest", signedOut: true }, { revalidate: false });
    }
  }, [globalMutate, mutate]);

  const getActiveSubscription = useCallback(async () => {
    try {
      const subscription = await api.get<ActiveSubscription | null>("/api/me/active-subscription");
      setActiveSubscription(subscription ?? null);
      return subscription ?? null;
    } catch (error) {
      if (isApiError(error) && error.status === 404) {
        setActiveSubscription(null);
        return null;
      }
      throw error;
    }
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      me,
      user: me?.status === "signed_in" ? me.user : null,
      gotMe: me !== undefined,
      isGuest: me !== undefined && me.status !== "signed_in",
      activeSubscription,
      generation: generationRef.current,
      getCurrentUser,
      login,
      validateTwoFactorCode,
      resendCode,
      logout,
      getActiveSubscription,
      setUser,
    }),
    [
      me,
      activeSubscription,
      getCurrentUser,
      login,
      validateTwoFactorCode,
      resendCode,
      logout,
      getActiveSubscription,
      setUser,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The auth state when an <AuthProvider> is above, else null (for parts that also render outside it). */
export function useOptionalAuth(): AuthContextValue | null {
  return useContext(AuthContext);
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth needs an <AuthProvider> above it");
  return value;
}
