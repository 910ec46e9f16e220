export {
  type AuthContextValue,
  AuthProvider,
  type AuthProviderProps,
  fetchMe,
  type LoginInput,
  type LoginResult,
  ME_KEY,
  TWO_FACTOR_CODE,
  useAuth,
  useOptionalAuth,
} from "./AuthProvider";
export {
  ADMINS_ONLY_NOTICE,
  DASHBOARD_PATH,
  type GuardDecision,
  guestGuard,
  joinStaffGuard,
  LOGIN_PATH,
  ORGANISATION_ADMIN_ONLY_NOTICE,
  type StaffGuardOptions,
  safeRedirect,
  staffGuard,
  TWO_FACTOR_PATH,
  withRedirect,
} from "./guard";
export { GUEST_FLAG_KEY, type GuestFlag, readGuestFlag, writeGuestFlag } from "./guest-flag";
export { administersGym, managesOffering, staffGymsOf } from "./reach";
export { type Site, siteUrl } from "./site-url";
export type {
  ActiveSubscription,
  CurrentOrganisation,
  CurrentUser,
  GymSummary,
  MeState,
  OrganisationSummary,
  PaymentTypeSummary,
} from "./types";
