import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { encryptSecret } from "@gym/core/crypto/secrets";
import { db } from "@gym/core/db/service";
import { secretContext } from "@gym/core/gym/present";
import { newId } from "@gym/core/ids";
import { fileStore } from "@gym/core/providers/files/index";
import { linkProviderId } from "@gym/core/providers/links";
import { SIMULATED_KISI_LOCKS, SIMULATED_KISI_PLACES } from "@gym/core/simulators/kisi";
import { sendSimulatedWebhook } from "../simulators/router";
import type { SeededIdentity } from "./identity";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** A 96×96 PNG logo: a teal tile with a white "H" (Harbour). */
export function demoLogoPng(size = 96): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const u = x / size;
      const v = y / size;
      const bar = (u > 0.25 && u < 0.37) || (u > 0.63 && u < 0.75);
      const cross = u >= 0.37 && u <= 0.63 && v > 0.45 && v < 0.56;
      const letter = (bar || cross) && v > 0.22 && v < 0.78;
      const [r, g, b] = letter ? [255, 255, 255] : [12, 132 - Math.round(v * 30), 140];
      row.writeUInt8(r, 1 + x * 3);
      row.writeUInt8(g, 2 + x * 3);
      row.writeUInt8(b, 3 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * Gym settings for the demo: Harbour Fitness Ponsonby fully configured (destination account,
 * logo, Stripe connected, Branch and Akahu apps, Kisi place with doors tracking visits) and
 * Harbour Fitness Newmarket half-configured (destination account only: no card payments, no
 * doors, so its edit page shows what is left to do). A few webhook calls from the simulated
 * providers fill the debugging pages.
 */
export async function seedGyms(identity: SeededIdentity) {
  const { harbour } = identity.organisations;
  const { ponsonby, newmarket } = identity.gyms;
  const org = harbour.organisation_id;
  const gym = db().entities.gym;

  const logo = demoLogoPng();
  const logoKey = `logos/${org}/${ponsonby.gym_id}/${createHash("sha256").update(logo).digest("hex").slice(0, 20)}.png`;
  await fileStore().put(logoKey, logo, "image/png");

  await db()
    .entities.organisation.patch({ organisation_id: org })
    .set({
      access_control: {
        integration_id: newId(),
        integration_type: "kisi",
        api_key_enc: encryptSecret("kisi_demo_harbour_key_4821", `organisation:${org}:kisi_api_key`),
        connected_at: new Date().toISOString(),
      },
    })
    .go();

  const place = SIMULATED_KISI_PLACES[0];
  const stripeAccount = "acct_simHarbourPonsonby";
  await gym
    .patch({ organisation_id: org, gym_id: ponsonby.gym_id })
    .set({
      logo: logoKey,
      tracks_visits: true,
      price_change_notification_reply_to: "ponsonby@harbourfitness.example.nz",
      destination_account: {
        account_id: newId(),
        name: "Harbour Fitness Ponsonby Ltd",
        bank_account_number: "12-3140-0171323-50",
        updated_at: new Date().toISOString(),
      },
      stripe_id: stripeAccount,
      stripe_livemode: false,
      stripe_connected_at: new Date().toISOString(),
      branch_app_id: "1183920012",
      branch_key: "key_test_harbourponsonby",
      branch_secret_enc: encryptSecret("secret_demo_ponsonby_7731", secretContext(ponsonby, "branch_secret")),
      akahu_app_token: "app_token_demo_harbour",
      akahu_app_secret_enc: encryptSecret(
        "app_secret_demo_harbour_5190",
        secretContext(ponsonby, "akahu_app_secret"),
      ),
      kisi_place: { place_id: place.id, name: place.name, linked_at: new Date().toISOString() },
      doors: SIMULATED_KISI_LOCKS.filter((lock) => lock.place_id === place.id).map((lock, i) => ({
        door_id: lock.id,
        name: lock.name,
        tracks_visits: i === 0,
      })),
    })
    .go();
  await linkProviderId("stripe_account", stripeAccount, { organisation_id: org, gym_id: ponsonby.gym_id });
  await linkProviderId("kisi_place", place.id, { organisation_id: org, gym_id: ponsonby.gym_id });

  await gym
    .patch({ organisation_id: org, gym_id: newmarket.gym_id })
    .set({
      destination_account: {
        account_id: newId(),
        name: "Harbour Fitness Newmarket Ltd",
        bank_account_number: "01-0902-0068389-00",
        updated_at: new Date().toISOString(),
      },
    })
    .go();

  await sendSimulatedWebhook("stripe", { account: stripeAccount });
  await sendSimulatedWebhook("akahu", {
    state: org,
    webhook_type: "PAYMENT",
    webhook_code: "UPDATE",
    status: "SENT",
  });
  await sendSimulatedWebhook("kisi", {
    place_id: Number(place.id),
    object_id: Number(SIMULATED_KISI_LOCKS[0].id),
  });
}
