/**
 * The one DynamoDB table, defined once. Infrastructure (infra/storage.ts) and the local
 * launcher (functions/src/local/database.ts) both build the table from this description,
 * so the keys, the generic GSIs and the TTL attribute cannot drift apart.
 */
export const table = {
  partitionKey: "pk",
  sortKey: "sk",
  /**
   * Global secondary indexes. The generic ones project ALL attributes; one with `include` projects
   * only those attributes (besides the table's and its own keys): an update that changes none of
   * them does not write the index.
   */
  globalIndexes: {
    gsi1: { partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    gsi2: { partitionKey: "gsi2pk", sortKey: "gsi2sk" },
    gsi3: { partitionKey: "gsi3pk", sortKey: "gsi3sk" },
    /** Sparse: the payments that need attention (docs/data-model.md "Indexes added for scale"). */
    gsi4: { partitionKey: "gsi4pk", sortKey: "gsi4sk" },
    /**
     * The staff payments list (payment/list.ts): `<organisation_id>#<YYYY-MM>` of the due date /
     * `<due_on>#<payment_id>`, with only what the list shows and filters on (docs/data-model.md
     * "Indexes added for scale"). ElectroDB's `__edb_e__`/`__edb_v__` name the item's entity.
     */
    gsi5: {
      partitionKey: "gsi5pk",
      sortKey: "gsi5sk",
      include: [
        "__edb_e__",
        "__edb_v__",
        "organisation_id",
        "payment_id",
        "subscription_id",
        "user_id",
        "gym_id",
        "status",
        "type",
        "amount",
        "surcharge",
        "joining_fee",
        "discount",
        "due_on",
        "period_start_at",
        "period_end_at",
        "is_retry",
        "is_pro_rata",
        "poll_count",
        "akahu_id",
        "akahu_sid",
        "stripe_id",
        "error_status",
        "error_description",
        "processed_by",
        "balance_owing",
        "periods_owing",
        "credit_used",
        "force_amount",
        "destination_account",
        "is_term_membership",
        "cooling_period_ends_at",
        "term_ends_at",
        "meta",
        "tasks",
        "pif_payment",
        "waiting_for",
        // Written with a change of status (projected anyway): the accounting and expected reads.
        "claimed_at",
        "charged_at",
        "settled_at",
        "member_name",
        "member_email",
        "gym_name",
        "price_label",
        "created_at",
      ],
    },
  },
  /** Epoch seconds. DynamoDB deletes expired items lazily: readers must also filter on it. */
  ttlAttribute: "expires_at",
} as const;

export type IndexName = keyof typeof table.globalIndexes;

/** The attributes an index projects besides the keys: every one, or the named ones. */
export function projectionOf(name: IndexName): "all" | readonly string[] {
  const index = table.globalIndexes[name];
  return "include" in index ? index.include : "all";
}

/** Every key attribute is a string. */
export function attributeDefinitions() {
  const names = new Set<string>([table.partitionKey, table.sortKey]);
  for (const index of Object.values(table.globalIndexes)) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names].map((AttributeName) => ({ AttributeName, AttributeType: "S" as const }));
}

/** The CreateTable input used locally (on-demand billing, each GSI projecting as `projectionOf` says). */
export function createTableInput(TableName: string) {
  return {
    TableName,
    BillingMode: "PAY_PER_REQUEST" as const,
    AttributeDefinitions: attributeDefinitions(),
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: "HASH" as const },
      { AttributeName: table.sortKey, KeyType: "RANGE" as const },
    ],
    GlobalSecondaryIndexes: Object.entries(table.globalIndexes).map(([IndexName, keys]) => {
      const projection = projectionOf(IndexName as IndexName);
      return {
        IndexName,
        KeySchema: [
          { AttributeName: keys.partitionKey, KeyType: "HASH" as const },
          { AttributeName: keys.sortKey, KeyType: "RANGE" as const },
        ],
        Projection:
          projection === "all"
            ? { ProjectionType: "ALL" as const }
            : { ProjectionType: "INCLUDE" as const, NonKeyAttributes: [...projection] },
      };
    }),
  };
}
