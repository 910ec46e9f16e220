import { Service } from "electrodb";
import { doorAccessEntity, visitEntity } from "../access/entity";
import { accountingMappingEntity, journalDayEntity, payoutEntity } from "../accounting/entity";
import { codeEntity, linkEntity, sessionEntity, throttleEntity } from "../auth/entities";
import { businessClockEntity } from "../clock-entity";
import { config } from "../config";
import { mailEntity } from "../email/entity";
import { gymPeopleEntity } from "../gym/count-entity";
import { gymEntity } from "../gym/entity";
import { invitationEntity } from "../invitation/entity";
import { memberActivityEntity, memberEntity, memberSearchTermEntity } from "../member/entity";
import { noticeEntity } from "../notice/entity";
import { offeringEntity, offeringMembershipCountEntity } from "../offering/entity";
import { organisationEntity } from "../organisation/entity";
import { outboxEventEntity } from "../outbox/entity";
import { dunningEntity } from "../payment/dunning/entity";
import { paymentEntity, paymentMonthEntity, paymentRefEntity } from "../payment/entity";
import { reconciliationMismatchEntity } from "../payment/reconcile-entity";
import { cardSetupEntity, paymentTypeDefaultEntity, paymentTypeEntity } from "../payment-type/entity";
import { joinLinkEntity, priceEntity } from "../price/entity";
import { promoCodeEntity, promoCodeNameEntity, promoCodeUseEntity } from "../promo/entity";
import { akahuConnectionEntity } from "../providers/akahu/connection";
import { providerLinkEntity } from "../providers/link-entity";
import { receiptCounterEntity, receiptEntity } from "../receipt/entity";
import { registrationEntity } from "../registration/entity";
import { churnRiskEntity, memberMonthEntity, rollupEntity } from "../rollup/entity";
import { membershipClaimEntity, subscriptionEntity } from "../subscription/entity";
import { trialUseEntity } from "../trial/entity";
import { userEmailEntity, userEntity } from "../user/entity";
import { memberProfileEntity } from "../user/profile-entity";
import { roleEntity } from "../user/role-entity";
import { webhookCallEntity, webhookReceiptEntity } from "../webhook-log/entity";
import { dynamo } from "./client";

/**
 * Every entity of the one table, grouped in an ElectroDB Service. Domains add their entity
 * here. The Service binds the client and table name to the entities when it is first used,
 * so a process (or a test file) can choose its table through TABLE_NAME before that.
 */
const entities = {
  organisation: organisationEntity,
  gym: gymEntity,
  gymPeople: gymPeopleEntity,
  user: userEntity,
  userEmail: userEmailEntity,
  role: roleEntity,
  invitation: invitationEntity,
  mail: mailEntity,
  session: sessionEntity,
  code: codeEntity,
  link: linkEntity,
  throttle: throttleEntity,
  providerLink: providerLinkEntity,
  akahuConnection: akahuConnectionEntity,
  webhookCall: webhookCallEntity,
  webhookReceipt: webhookReceiptEntity,
  offering: offeringEntity,
  offeringMembers: offeringMembershipCountEntity,
  price: priceEntity,
  promoCode: promoCodeEntity,
  promoCodeName: promoCodeNameEntity,
  promoCodeUse: promoCodeUseEntity,
  trialUse: trialUseEntity,
  joinLink: joinLinkEntity,
  subscription: subscriptionEntity,
  dunning: dunningEntity,
  membershipClaim: membershipClaimEntity,
  payment: paymentEntity,
  paymentRef: paymentRefEntity,
  paymentMonth: paymentMonthEntity,
  reconciliationMismatch: reconciliationMismatchEntity,
  paymentType: paymentTypeEntity,
  paymentTypeDefault: paymentTypeDefaultEntity,
  cardSetup: cardSetupEntity,
  businessClock: businessClockEntity,
  member: memberEntity,
  memberProfile: memberProfileEntity,
  memberSearchTerm: memberSearchTermEntity,
  memberActivity: memberActivityEntity,
  registration: registrationEntity,
  doorAccess: doorAccessEntity,
  visit: visitEntity,
  rollup: rollupEntity,
  memberMonth: memberMonthEntity,
  churnRisk: churnRiskEntity,
  receipt: receiptEntity,
  receiptCounter: receiptCounterEntity,
  notice: noticeEntity,
  accountingMapping: accountingMappingEntity,
  journalDay: journalDayEntity,
  payout: payoutEntity,
  outboxEvent: outboxEventEntity,
};

let bound: Service<typeof entities> | undefined;
let boundTable: string | undefined;

export function db(): Service<typeof entities> {
  if (!bound || boundTable !== config.tableName) {
    boundTable = config.tableName;
    bound = new Service(entities, { client: dynamo(), table: boundTable });
  }
  return bound;
}
