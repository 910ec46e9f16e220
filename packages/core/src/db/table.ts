/**
 * The one DynamoDB table, defined once. Infrastructure (infra/storage.ts) and the local
 * launcher (functions/src/local/database.ts) both build the table from this description,
 * so the keys, the generic GSIs and the TTL attribute cannot drift apart.
 */
export const table = {
  partitionKey: "pk",
  sortKey: "sk",
  /** Generic global secondary indexes; every one projects ALL attributes. */
  globalIndexes: {
    gsi1: { partitionKey: "gsi1pk", sortKey: "gsi1sk" },
    gsi2: { partitionKey: "gsi2pk", sortKey: "gsi2sk" },
    gsi3: { partitionKey: "gsi3pk", sortKey: "gsi3sk" },
    /** Sparse: the payments that need attention (docs/data-model.md "Indexes added for scale"). */
    gsi4: { partitionKey: "gsi4pk", sortKey: "gsi4sk" },
  },
  /** Epoch seconds. DynamoDB deletes expired items lazily: readers must also filter on it. */
  ttlAttribute: "expires_at",
} as const;

export type IndexName = keyof typeof table.globalIndexes;

/** Every key attribute is a string. */
export function attributeDefinitions() {
  const names = new Set<string>([table.partitionKey, table.sortKey]);
  for (const index of Object.values(table.globalIndexes)) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names].map((AttributeName) => ({ AttributeName, AttributeType: "S" as const }));
}

/** The CreateTable input used locally (on-demand billing, every GSI projecting ALL). */
export function createTableInput(TableName: string) {
  return {
    TableName,
    BillingMode: "PAY_PER_REQUEST" as const,
    AttributeDefinitions: attributeDefinitions(),
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: "HASH" as const },
      { AttributeName: table.sortKey, KeyType: "RANGE" as const },
    ],
    GlobalSecondaryIndexes: Object.entries(table.globalIndexes).map(([IndexName, keys]) => ({
      IndexName,
      KeySchema: [
        { AttributeName: keys.partitionKey, KeyType: "HASH" as const },
        { AttributeName: keys.sortKey, KeyType: "RANGE" as const },
      ],
      Projection: { ProjectionType: "ALL" as const },
    })),
  };
}
