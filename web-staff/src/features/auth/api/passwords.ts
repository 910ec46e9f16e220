/** The password calls and schemas, shared with the join site (packages/web/src/auth/passwords.ts). */
export * from "@gym/web/passwords";
