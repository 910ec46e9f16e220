/** A small, self-contained HTML page for the simulated providers' consent screens. */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

export function consentPage(input: {
  provider: string;
  title: string;
  lines: string[];
  approve: { label: string; href: string };
  deny: { label: string; href: string };
}) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { background: white; border-radius: 12px; box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); padding: 2rem; max-width: 28rem; }
  .badge { display: inline-block; font-size: 0.75rem; background: #fff3bf; color: #5c3c00; border-radius: 4px; padding: 0.15rem 0.5rem; }
  h1 { font-size: 1.35rem; margin: 0.75rem 0; }
  p { color: #444; line-height: 1.5; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  a { text-decoration: none; border-radius: 6px; padding: 0.6rem 1rem; font-weight: 600; }
  .approve { background: #635bff; color: white; }
  .deny { border: 1px solid #ccc; color: #333; }
</style>
</head>
<body>
<main>
  <span class="badge">Simulated ${escapeHtml(input.provider)} · local only</span>
  <h1>${escapeHtml(input.title)}</h1>
  ${input.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n  ")}
  <div class="actions">
    <a class="approve" href="${escapeHtml(input.approve.href)}">${escapeHtml(input.approve.label)}</a>
    <a class="deny" href="${escapeHtml(input.deny.href)}">${escapeHtml(input.deny.label)}</a>
  </div>
</main>
</body>
</html>`;
}

/**
 * The simulated Stripe card form: stands in for Stripe.js Elements confirming a SetupIntent. It
 * posts the number only to the simulator (`/api/dev/stripe/setup/confirm`), never to the business
 * API, then goes back to `return_url` the way Stripe.js does (`setup_intent`,
 * `setup_intent_client_secret`, `redirect_status`).
 */
export function cardPage(input: {
  account: string;
  setupIntent: string;
  clientSecret: string;
  returnUrl: string;
  cards: { number: string; note: string }[];
}) {
  const data = escapeHtml(
    JSON.stringify({
      account: input.account,
      setup_intent: input.setupIntent,
      client_secret: input.clientSecret,
      return_url: input.returnUrl,
    }),
  );
  const year = new Date().getUTCFullYear() + 3;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Save a card</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { background: white; border-radius: 12px; box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); padding: 2rem; max-width: 30rem; }
  .badge { display: inline-block; font-size: 0.75rem; background: #fff3bf; color: #5c3c00; border-radius: 4px; padding: 0.15rem 0.5rem; }
  h1 { font-size: 1.35rem; margin: 0.75rem 0; }
  label { display: block; font-size: 0.85rem; color: #333; margin-top: 0.75rem; }
  input { font: inherit; padding: 0.5rem; border: 1px solid #ccc; border-radius: 6px; width: 100%; box-sizing: border-box; }
  .row { display: flex; gap: 0.75rem; }
  button { font: inherit; font-weight: 600; border: 0; border-radius: 6px; padding: 0.6rem 1rem; background: #635bff; color: white; margin-top: 1.25rem; cursor: pointer; }
  [role=alert] { color: #c92a2a; min-height: 1.5em; margin-top: 0.75rem; }
  ul { padding-left: 1.1rem; font-size: 0.85rem; color: #444; }
  code { cursor: pointer; color: #3b5bdb; }
</style>
</head>
<body>
<main data-intent="${data}">
  <span class="badge">Simulated Stripe · local only</span>
  <h1>Save a card</h1>
  <form id="card">
    <label for="number">Card number</label>
    <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242" required>
    <div class="row">
      <div><label for="exp_month">Expiry month</label><input id="exp_month" name="exp_month" inputmode="numeric" value="12" required></div>
      <div><label for="exp_year">Expiry year</label><input id="exp_year" name="exp_year" inputmode="numeric" value="${year}" required></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" value="123"></div>
    </div>
    <button type="submit">Save card</button>
    <p role="alert" id="error"></p>
  </form>
  <p>Stripe's test numbers:</p>
  <ul>
    ${input.cards.map((card) => `<li><code data-number="${escapeHtml(card.number)}">${escapeHtml(card.number)}</code> ${escapeHtml(card.note)}</li>`).join("\n    ")}
  </ul>
</main>
<script>
  const intent = JSON.parse(document.querySelector("main").dataset.intent);
  for (const code of document.querySelectorAll("code[data-number]"))
    code.addEventListener("click", () => { document.getElementById("number").value = code.dataset.number; });
  document.getElementById("card").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const error = document.getElementById("error");
    error.textContent = "";
    const response = await fetch("/api/dev/stripe/setup/confirm", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
      body: JSON.stringify({
        ...intent,
        number: String(form.get("number")),
        exp_month: Number(form.get("exp_month")),
        exp_year: Number(form.get("exp_year")),
      }),
    });
    const body = await response.json();
    if (response.ok) window.location.assign(body.data.redirect);
    else error.textContent = body.message;
  });
</script>
</body>
</html>`;
}
