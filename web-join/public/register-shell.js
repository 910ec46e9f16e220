/*
 * The register page before the app (docs/performance.md, "How join / is usable at once"): loaded
 * by index.html's shell only (app.html has none), a classic script of ~1 KB that runs as soon as
 * it arrives. It asks for the link's gym and offer (`GET /api/join`, the same URL the app's `/`
 * loader asks for: src/features/register/api/join-options.ts) at once, rather than after the
 * app's ~170 KB, and draws the gym's memberships into the shell's form, which it then shows. The
 * app takes the answer over (`window.__joinOptions`, no second request) and the form with what
 * was typed (src/main.tsx). Plain ES2017, no dependencies; text only through textContent.
 */
(() => {
  const params = new URLSearchParams(location.search);
  const query = new URLSearchParams();
  for (const name of ["gym", "price", "age_bypass"]) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  if (!query.toString() || params.get("signin") === "1") return;
  const key = `/api/join?${query}`;
  const data = fetch(key, {
    headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" },
    credentials: "include",
    // Ahead of the app's code and stylesheet, downloading at the same time.
    priority: "high",
  })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then((body) => body.data);
  window.__joinOptions = { key, data };
  data.catch(() => {});

  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  const draw = (options) => {
    const shell = document.querySelector("[data-shell]");
    const form = shell?.querySelector("[data-shell-form]");
    const list = form?.querySelector("[data-shell-offer]");
    if (!list || !options || options.offerings.length === 0) return;
    shell.querySelector(".shell-word").textContent = options.gym.name;
    for (const offering of options.offerings) {
      const group = element("div", "shell-offering");
      group.append(element("b", "", offering.name));
      if (offering.description) group.append(element("small", "", offering.description));
      for (const price of offering.prices) {
        const card = element("label", "shell-card");
        const input = element("input");
        input.type = "radio";
        input.name = "price_id";
        input.value = price.id;
        input.checked = price.id === options.selected_price_id;
        // Worded as the app's card (MembershipChoice.tsx `planWords`): src/main.tsx carries the
        // choice over by this name.
        const words =
          price.formatted_pass ||
          (price.formatted_trial ? `${price.formatted_trial}, then ${price.label}` : price.label);
        input.setAttribute("aria-label", `${offering.name}: ${words}`);
        const text = element("span");
        text.append(element("b", "", words));
        const fee = price.formatted_joining_fee ? ` · ${price.formatted_joining_fee} joining fee` : "";
        const kind = price.kind === "pass" ? "Visit pass" : price.membership_type;
        text.append(element("small", "", `${kind}${fee}`));
        card.append(input, text);
        group.append(card);
      }
      list.append(group);
    }
    // The start date's default, today, day first as the app's date input shows it ("1/12/2026").
    const start = form.querySelector('input[data-date="start"]');
    const today = /^(\d{4})-(\d{2})-(\d{2})$/.exec(options.today || "");
    if (start && today) start.defaultValue = `${Number(today[3])}/${today[2]}/${today[1]}`;
    // A press of its button is kept for the app, which answers it when it takes over (src/main.tsx).
    const button = form.querySelector("button");
    if (button) button.addEventListener("click", () => form.setAttribute("data-pressed", ""));
    form.hidden = false;
  };
  // Not on DOMContentLoaded: that waits for the app's module script (and its stylesheet). The
  // form is drawn once the parser has passed its last element, its button.
  const whenParsed = (options, tries = 0) => {
    if (document.querySelector("[data-shell-form] button")) draw(options);
    else if (tries < 600) requestAnimationFrame(() => whenParsed(options, tries + 1));
  };
  data.then(whenParsed, () => {});
})();
