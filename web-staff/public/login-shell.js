/*
 * The sign-in page before the app (docs/performance.md, "How staff /login is usable at once"):
 * loaded by index.html's shell only (app.html has none), a classic script of a few lines that runs
 * as soon as it arrives, ahead of the app's code. It keeps a press of "Sign in" on the early form
 * (its button, or Enter in a field) as the form's `data-pressed`, and src/main.tsx sends the
 * sign-in when the app takes over. Meanwhile the button says "Signing in…", so a person on a slow
 * phone sees it is on its way. Listened for on the document: the script may run before the parser
 * has reached the form. The button does nothing by itself (not a submit button: a form
 * sent before the app is here would put the password in the address). Plain ES2017.
 */
(() => {
  const press = (target) => {
    const form = target instanceof Element ? target.closest("[data-shell-form]") : null;
    if (!form) return;
    form.setAttribute("data-pressed", "");
    // Seen to be on its way when both fields are filled (the app says what is missing otherwise).
    const button = form.querySelector("button");
    if (button && [...form.querySelectorAll("input")].every((input) => input.value)) {
      button.setAttribute("aria-disabled", "true");
      button.textContent = "Signing in…";
    }
  };
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-shell-form] button"))
      press(event.target);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target instanceof HTMLInputElement) press(event.target);
  });
})();
