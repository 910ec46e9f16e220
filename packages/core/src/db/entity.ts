/** Shared pieces of entity schemas. */
export const SERVICE = "gym";

/** created_at / updated_at maintained by ElectroDB on every put and update. */
export const timestamps = {
  created_at: {
    type: "string",
    readOnly: true,
    required: true,
    default: () => new Date().toISOString(),
    set: () => new Date().toISOString(),
  },
  updated_at: {
    type: "string",
    watch: "*",
    required: true,
    default: () => new Date().toISOString(),
    set: () => new Date().toISOString(),
  },
} as const;
