/**
 * Each documented API operation's budget of DynamoDB requests, and of rounds (requests that wait
 * on each other: requests sent side by side are one round), the session and the actor's roles and
 * gyms included; the local runtime's own requests (business clock, mail outbox) and the front
 * door's rate-limit counter are not counted. docs/performance.md "Request budgets".
 *
 * packages/functions/src/api/request-budgets.test.ts runs every operation in the OpenAPI document
 * on a seeded organisation: an operation over its budget, or without a row here, fails it.
 * `npm run bench -- --requests` prints each operation's count beside its budget.
 *
 * A new route gets its row here, keyed "METHOD /api/path" exactly as the OpenAPI document writes
 * its path (parameters in braces), in the group of its router (the order of `routers` in app.ts).
 * A staff or user call pays 2 requests in 1 round before its own work (the session and the user's
 * role in the organisation its cookie names in one BatchGetItem, that organisation's gyms beside
 * it: core auth/signed-in.ts), a session call 1 (the session), a public call none.
 */
export interface RequestBudget {
  requests: number;
  rounds: number;
  /**
   * The error answer the test measures this operation on, and why no success is set up for it.
   * Without it the test fails unless the measured answer is one of the operation's documented
   * successes (a 2xx, an export's 303): a budget bounds what the operation costs when it works.
   */
  errorPath?: { status: number; why: string };
}

const b = (requests: number, rounds: number, errorPath?: RequestBudget["errorPath"]): RequestBudget => ({
  requests,
  rounds,
  ...(errorPath ? { errorPath } : {}),
});

/**
 * Sorted by path, then method. Set at what each operation cost when the test came in (issue 36),
 * so none can grow unseen; the comments name the budgets the issue aims at, not met yet. Raised
 * once with the tenancy work (issue 33), each by what it added: the current organisation's
 * member_profile (me and the switches that answer it, registration, register, register fields), waiting invitations and this
 * organisation's photos (staff list, staff member, resend, deactivate), the session pinned to its
 * organisation at sign-in (email/verify), the offering's gym scope (delete a price). And once with
 * issues 34 and 35: the quote of the next money event in every full subscription answer (its
 * organisation, gym and payment type: subscriptions, pause, cancel, undo, manual payment) and a
 * member's payment types on `/api/me` (and the switches that answer it). Lowered to what each
 * costs after issue 36's second round: the staff prelude in one round (every staff and user call
 * one request and one round fewer), the member page in two rounds, the members list's photos
 * beside its subscriptions, register's independent reads side by side. Lowered again by issue
 * 36's third round (docs/performance.md "Third round"): register and subscribe pass on what they
 * made and read instead of reading it again, the quote of the next money event takes the records
 * its caller read (the member page, a subscription's page, subscribe's answer). And by its fourth
 * round: register in one transaction, subscribe's reads batched and its follow-ups side by side,
 * the members list's photos in its subscriptions' BatchGet. Then (issue 36, fifth round) every
 * operation measured as it succeeds, on the demo gyms as seeded (Stripe, Kisi, Akahu): 67 rows had
 * bounded only an error path (a 422 on a missing query, a 404 on an id of the wrong kind), so they
 * were set to what the success costs, and every row more than ~20% above its count was lowered to
 * it (docs/performance.md "Fifth round").
 */
export const requestBudgets: Record<string, RequestBudget> = {
  "GET /api/accounting/gst-summary": b(6, 3),
  "GET /api/accounting/journals": b(3, 2),
  "POST /api/accounting/journals/export": b(8, 5),
  "GET /api/active-users": b(15, 3),
  "GET /api/akahu/auth-url": b(3, 2),
  "POST /api/akahu/exchange": b(4, 3),
  "POST /api/akahu/sync-accounts": b(5, 4),
  "GET /api/cost-and-visit-breakdown": b(5, 2),
  "POST /api/email-change/confirm": b(11, 9),
  "POST /api/email-change/undo": b(14, 12),
  "POST /api/email/resend": b(4, 3),
  "POST /api/email/verify": b(7, 5),
  // The attention index: 8 shards side by side (issue 39; was the in-flight index one shard after another).
  // The days ahead (at most 31) read the scheduled-payment counter rows: one Query (issue 39 item 4;
  // was one Query per month of the range, so one more when it crossed a month's end); a round more only
  // when a day in the range has payments waiting for a consent (their list). Issue 39 item 3: the debt owed now
  // from the dashboard's counters (one Query of the running total row, side by side too); the
  // attention part is a page (100 from each shard), so no more requests however much is open.
  "GET /api/expected-payments-debugging": b(14, 2),
  "GET /api/files/logos/{organisationId}/{gymId}/{file}": b(0, 0),
  "GET /api/files/profile-pictures/{organisationId}/{userId}/{file}": b(3, 2),
  "GET /api/files/profile-pictures/{userId}/{file}": b(3, 2),
  "POST /api/forgot-password": b(2, 2),
  "GET /api/gyms": b(3, 2),
  "PUT /api/gyms/{gymId}/destination-accounts/{accountId}": b(16, 13),
  "GET /api/gyms/{gym_id}/offerings": b(6, 2),
  "GET /api/gyms/{gym}/offerings/{offering}/unique-memberships": b(4, 3),
  "GET /api/gyms/{id}": b(5, 3),
  "PUT /api/gyms/{id}": b(6, 4),
  "POST /api/gyms/{id}/access-control/places": b(7, 5),
  "PUT /api/gyms/{id}/akahu-config": b(6, 4),
  "PUT /api/gyms/{id}/branch-config": b(6, 4),
  "POST /api/gyms/{id}/logo": b(6, 4),
  "POST /api/gyms/{id}/stripe/redirect": b(3, 2),
  "POST /api/gyms/{id}/switch": b(8, 4),
  "PUT /api/gyms/{id}/tracks-visits": b(6, 4),
  "GET /api/health": b(1, 1),
  "POST /api/invitations/accept": b(15, 12),
  "POST /api/invitations/decline": b(4, 4),
  "POST /api/invitations/peek": b(3, 3),
  "GET /api/join": b(5, 2),
  "POST /api/login": b(5, 4),
  "POST /api/logout": b(2, 2),
  "GET /api/me": b(7, 3),
  "POST /api/me/email": b(5, 4),
  "GET /api/me/active-subscription": b(3, 2),
  "POST /api/me/payment-types/bank-account": b(11, 9),
  "POST /api/me/payment-types/card": b(12, 11),
  "POST /api/me/payment-types/card/setup": b(6, 4),
  "POST /api/me/payment-types/{payment_type_id}/switch": b(4, 3),
  "GET /api/me/payments/{id}/receipt": b(4, 3),
  "PUT /api/me/register-fields": b(5, 4),
  "GET /api/me/registration": b(10, 3),
  "PUT /api/me/registration": b(23, 11),
  "POST /api/me/subscriptions/{id}/cancel": b(23, 16),
  "POST /api/me/subscriptions/{id}/stop-trial": b(24, 17),
  "GET /api/me/subscriptions/{id}/cancellation-preview": b(4, 3),
  "DELETE /api/me/subscriptions/{id}/pause": b(20, 13),
  "POST /api/me/subscriptions/{id}/pause": b(20, 13),
  // Issue 36 aims at ≤ 3 in ≤ 2 (a list page): not met, docs/performance.md "Fourth round" says why.
  "GET /api/members": b(4, 3),
  "POST /api/members/export": b(4, 3),
  "DELETE /api/members/{id}": b(9, 8),
  "GET /api/members/{id}": b(8, 2), // issue 36 aims at ≤ 5 in ≤ 2 (the quote's facts come with the page's reads now)
  "PUT /api/members/{id}": b(20, 13),
  "GET /api/members/{id}/access-control": b(7, 4),
  "GET /api/members/{id}/access-control-credentials": b(7, 6),
  "GET /api/members/{id}/activity": b(5, 4),
  "POST /api/members/{id}/pif": b(30, 19),
  "POST /api/members/{id}/resend-pif-invite": b(11, 9),
  "POST /api/members/{id}/restore": b(10, 4), // the member page it answers
  "GET /api/members/{id}/subscription-periods": b(5, 4),
  "GET /api/members/{id}/weekly-cost-per-visit": b(6, 4),
  "GET /api/members/{id}/weekly-visits": b(5, 4),
  "GET /api/offering-options": b(4, 2),
  "GET /api/offerings": b(6, 2),
  "POST /api/offerings": b(5, 3),
  "DELETE /api/offerings/{id}": b(5, 4),
  "GET /api/offerings/{id}": b(6, 3),
  "PUT /api/offerings/{id}": b(8, 5),
  "DELETE /api/offerings/{id}/archive": b(8, 5),
  "GET /api/offerings/{id}/prices": b(6, 2),
  "POST /api/offerings/{id}/prices": b(6, 3),
  "GET /api/organisations/{id}/access-control/integration": b(3, 2),
  "POST /api/organisations/{id}/access-control/integration": b(5, 4),
  "GET /api/organisations/{id}/access-control/places": b(4, 3),
  "GET /api/organisations/{id}/access-control/places/{placeId}/doors": b(4, 3),
  "POST /api/organisations/{id}/access-control/webhook-secret": b(6, 5),
  "POST /api/organisations/{id}/members/onboard-pif": b(36, 24),
  "GET /api/organisations/{id}/prices": b(6, 2),
  "GET /api/organisations/{id}/staff": b(12, 5),
  "POST /api/organisations/{id}/staff": b(15, 12),
  "POST /api/organisations/{id}/staff-exists": b(3, 2),
  "POST /api/organisations/{id}/switch": b(10, 5),
  "GET /api/organisations/{organisationId}": b(3, 2),
  "PUT /api/organisations/{organisationId}": b(4, 3),
  "GET /api/organisations/{organisationId}/accounting": b(4, 2),
  "PUT /api/organisations/{organisationId}/accounting": b(4, 3),
  "POST /api/organisations/{organisationId}/age-bypass-links": b(3, 2),
  "GET /api/organisations/{organisationId}/akahu-webhooks": b(3, 2),
  "PUT /api/organisations/{organisationId}/billing-settings": b(4, 3),
  "PUT /api/organisations/{organisationId}/communications": b(4, 3),
  "PUT /api/organisations/{organisationId}/grace-period": b(4, 3),
  "PUT /api/organisations/{organisationId}/offering-permissions": b(4, 3),
  "PUT /api/organisations/{organisationId}/price-frequencies": b(4, 3),
  "GET /api/organisations/{organisationId}/registration-settings": b(3, 2),
  "PUT /api/organisations/{organisationId}/registration-settings": b(4, 3),
  "PUT /api/organisations/{organisationId}/term-membership-grace-period": b(4, 3),
  // Issue 36 aims at ≤ 3 in ≤ 2 (a list page); issue 34 adds 2 in 2 when the page holds upcoming rows,
  // shown as quoted: the page's subscriptions in one BatchGet, then their organisation, gyms and
  // payment types in one more (payment/quoted-page.ts). Issue 39 adds 1 request to the list and the
  // export, no round: the list index is keyed by organisation and due month, so a page reads which
  // months the organisation has payments in (one Query, payment/months.ts) beside the month it most
  // likely starts in (the cursor's, the range's end, or the current month); one round more only
  // when the page starts in another month (a later one) or goes on into the next.
  "GET /api/payments": b(6, 4),
  "POST /api/payments/export": b(4, 2),
  "GET /api/payments/{id}/receipt": b(4, 3),
  "POST /api/payments/{id}/received": b(26, 19),
  "GET /api/payouts": b(7, 3),
  // The period's settled payments (what is in transit) by due month on gsi5 (issue 39): the months
  // record beside the first month, then each further month.
  "POST /api/payouts/export": b(7, 3),
  "DELETE /api/prices/{id}": b(5, 4),
  "PUT /api/prices/{id}": b(8, 5),
  "DELETE /api/prices/{id}/archive": b(8, 5),
  "POST /api/prices/{id}/private-links": b(7, 5),
  "POST /api/prices/{id}/pro-rata": b(6, 4), // the example price has a trial: has the member had it? (issue 38)
  "POST /api/prices/{id}/restore": b(7, 4),
  "GET /api/prices/{id}/subscriptions": b(4, 3),
  "POST /api/profile-picture": b(3, 2),
  "GET /api/promo-codes": b(4, 2),
  "POST /api/promo-codes": b(4, 3),
  // Rounds are counted by timing (a request sent after an answer came back starts one), and its
  // side-by-side chains differ in length (the code's name, record and the member's use; the price,
  // then the trial's use): as their answers interleave it measured 4 or 5 (2 runs in 5 at 5).
  "GET /api/promo-codes/check": b(8, 5),
  "PUT /api/promo-codes/{id}": b(5, 4),
  "DELETE /api/promo-codes/{id}/archive": b(5, 3),
  "POST /api/register": b(5, 4), // issue 36 aimed at ≤ 8 in ≤ 4 (met)
  "POST /api/reset-password": b(7, 7),
  "POST /api/search": b(4, 3),
  "GET /api/sites/{site}": b(0, 0),
  // +2 and +2 rounds: the role's `role_written` event, with the outbox (issue 39): an event delivered right after its commit takes its lease (an UpdateItem) and deletes its item (a DeleteItem), one round each; the delete now goes beside the answer's own reads (issue 36, fifth round: outbox.ts `settledBeforeAnswer`), so one round in all.
  "DELETE /api/staff/{id}": b(14, 9),
  "GET /api/staff/{id}": b(8, 3),
  "POST /api/staff/{id}/kisi-access": b(10, 6),
  "POST /api/staff/{id}/resend-invitation": b(9, 5),
  "GET /api/stats": b(3, 2),
  "POST /api/stripe/exchange": b(7, 5),
  // issue 36 aims at ≤ 8 in ≤ 4; the example price has a trial: +1 read of the member's trial use (issue 38).
  // +4 requests, +4 rounds with the outbox (issue 39): an event delivered right after its commit takes its lease (an UpdateItem) and deletes its item (a DeleteItem), one round each: `subscribed` and `registration_confirmed`, side by side (the
  // registration's mark was beside the answer's reads, now after the commit). Lowered from 25 in 14 to its count
  // (issue 36, fifth round); the two events' items are deleted together once both handlers end, so 10 rounds every run (10 or 11 before).
  "POST /api/subscriptions": b(21, 10),
  "POST /api/subscriptions/change-price-email-preview": b(8, 5),
  "POST /api/subscriptions/schedule-price-change": b(27, 18),
  "GET /api/subscriptions/{id}": b(6, 4),
  // +1: the cancellation email reads the member as they are now (user/recipient.ts), not the snapshot.
  // +2 and +2 rounds: its `lifecycle_changed` event, with the outbox (issue 39): an event delivered right after its commit takes its lease (an UpdateItem) and deletes its item (a DeleteItem), one round each; the delete now goes beside the answer's own reads (issue 36, fifth round: outbox.ts `settledBeforeAnswer`), so one round in all.
  "POST /api/subscriptions/{id}/cancel": b(23, 16),
  "GET /api/subscriptions/{id}/cancellation-preview": b(4, 3),
  // Raised by 2 requests and 2 rounds with the outbox (issue 39): the receipt's `paid_at_desk` event
  // is delivered right after the commit under a lease (an UpdateItem) and then deleted (a DeleteItem);
  // +2 and +1 round: its `lifecycle_changed` event, delivered beside it.
  "POST /api/subscriptions/{id}/manual-payment": b(32, 22),
  "POST /api/subscriptions/{id}/pass-visits": b(20, 13),
  "DELETE /api/subscriptions/{id}/pause": b(20, 13),
  // +2 and +2 rounds: its `lifecycle_changed` event, with the outbox (issue 39): an event delivered right after its commit takes its lease (an UpdateItem) and deletes its item (a DeleteItem), one round each; the delete now goes beside the answer's own reads (issue 36, fifth round: outbox.ts `settledBeforeAnswer`), so one round in all.
  "POST /api/subscriptions/{id}/pause": b(20, 13),
  "GET /api/subscriptions/{id}/start-early-data": b(3, 2),
  "POST /api/subscriptions/{id}/start-now": b(23, 15),
  // +2: the member told it goes on, read as they are now (user/recipient.ts), and the email sent.
  // +2 and +2 rounds: its `lifecycle_changed` event, with the outbox (issue 39): an event delivered right after its commit takes its lease (an UpdateItem) and deletes its item (a DeleteItem), one round each; the delete now goes beside the answer's own reads (issue 36, fifth round: outbox.ts `settledBeforeAnswer`), so one round in all.
  "POST /api/subscriptions/{id}/undo-cancellation": b(22, 15),
  "GET /api/surcharge-total": b(5, 3),
  "POST /api/two-factor-authentication": b(7, 5),
  "POST /api/unique-email": b(1, 1),
  "POST /api/unsubscribe": b(3, 3),
  "GET /api/user-breakdown": b(4, 2),
  "GET /api/users/{id}/payments": b(4, 3),
  "GET /api/users/{id}/price-change-history": b(3, 2),
  "POST /api/users/{id}/recreate-kisi-login": b(15, 9),
  "GET /api/users/{id}/visits": b(5, 4),
  "POST /api/validate-link": b(2, 2),
  "GET /api/visits": b(3, 2),
  "POST /api/visits/export": b(3, 2),
  "GET /api/webhook-calls": b(3, 2),
  "POST /api/webhooks/akahu": b(4, 4),
  "POST /api/webhooks/kisi/{secret}": b(5, 5),
  "POST /api/webhooks/stripe": b(2, 2),
};
