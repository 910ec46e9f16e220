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
